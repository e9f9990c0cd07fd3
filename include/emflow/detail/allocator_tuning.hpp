// SPDX-License-Identifier: BSL-1.0
// emflow/detail/allocator_tuning.hpp: fixes glibc malloc's mmap threshold and bounds its arenas,
// once per process, so that memory emflow frees goes back to the kernel (the one-budget promise).
//
// glibc raises its mmap threshold whenever a mapped block is freed (up to 32 MiB): after a
// queue or sorter frees its big arrays, the next ones come from the heap, and the holes they
// leave there stay resident. The bare PPQ at a 64 MiB budget peaked at 130-162 MiB RSS, at
// 64-66 MiB with the threshold fixed at 256 KiB (bench/memory/README.md). Each further arena
// (glibc makes up to 8 per core for threads that meet in malloc) keeps freed memory besides.
// Blocks from the threshold on are faulted in afresh each time instead of reused from the heap:
// that costs the queue about a tenth of its time; 64 KiB and 1 MiB were no faster, and 1 MiB
// left 80-92 MiB.
#pragma once

#include <cstdlib>
#include <cstring>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace emflow::detail {

//! glibc's mmap threshold emflow sets: blocks of this size or larger are mapped on their own
//! and unmapped when freed (the queue's disk blocks from a 64 MiB budget on, its arrays).
inline constexpr int malloc_mmap_threshold = 256 * 1024;

//! True if the environment variable is set and not empty.
inline bool env_is_set(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}

//! True if the user chose the setting: MALLOC_<NAME>_ or glibc.malloc.<tunable> in
//! GLIBC_TUNABLES.
inline bool user_set_malloc(const char* env_name, const char* tunable) {
    const char* t = std::getenv("GLIBC_TUNABLES");
    return env_is_set(env_name) || (t && std::strstr(t, tunable));
}

//! The arenas emflow allows: one per core (glibc's default is eight per core), so that threads
//! on different cores still allocate without waiting for each other. With the threshold fixed,
//! four pushing threads on two cores peaked alike with 2 and 16 arenas (76 MiB; 150 MiB
//! untuned, 93 MiB with one arena and no threshold): the bound is for larger machines, where
//! each of many more arenas would keep its own freed small blocks.
inline int malloc_arena_max() {
    const unsigned cores = std::thread::hardware_concurrency();
    return cores ? static_cast<int>(cores) : 1;
}

//! Fixes the mmap threshold (which also ends glibc's raising of it) and bounds the arenas,
//! each unless the user set it; EMFLOW_MALLOC_TUNING=off leaves glibc's defaults. Not glibc:
//! nothing.
inline void tune_allocator() {
#if defined(__GLIBC__)
    const char* off = std::getenv("EMFLOW_MALLOC_TUNING");
    if (off && std::strcmp(off, "off") == 0) return;
    if (!user_set_malloc("MALLOC_MMAP_THRESHOLD_", "glibc.malloc.mmap_threshold"))
        ::mallopt(M_MMAP_THRESHOLD, malloc_mmap_threshold);
    if (!user_set_malloc("MALLOC_ARENA_MAX", "glibc.malloc.arena_max"))
        ::mallopt(M_ARENA_MAX, malloc_arena_max());
#endif
}

}  // namespace emflow::detail
