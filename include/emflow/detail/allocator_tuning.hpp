// SPDX-License-Identifier: BSL-1.0
// emflow/detail/allocator_tuning.hpp: fixes glibc malloc's mmap threshold once per process, so
// that the memory emflow frees goes back to the kernel (the one-budget promise).
//
// glibc raises its mmap threshold whenever a mapped block is freed (up to 32 MiB): after a
// queue or sorter frees its big arrays, the next ones come from the heap, and the holes they
// leave there stay resident. The bare PPQ at a 64 MiB budget peaked at 130-162 MiB RSS, at
// 64-66 MiB with the threshold fixed at 256 KiB (bench/memory/README.md). Blocks from the
// threshold on are faulted in afresh each time instead of reused from the heap: that costs the
// queue about a tenth of its time; 64 KiB and 1 MiB were no faster, and 1 MiB left 80-92 MiB.
//
// glibc's arenas (up to 8 per core, for threads that meet in malloc) are left as they are: with
// the threshold fixed, four std::threads pushing into a 64 MiB queue on two cores peaked at
// 76 MiB with 2 arenas and with 16 (150-158 MiB untuned, 90-94 MiB with one arena and no fixed
// threshold), and two arenas took up to 1.8x the time of sixteen (bench/memory/threads_bench).
#pragma once

#include <cstdlib>
#include <cstring>

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

//! Fixes the mmap threshold (which also ends glibc's raising of it) unless the user set it;
//! EMFLOW_MALLOC_TUNING=off leaves glibc's defaults. Not glibc: nothing.
inline void tune_allocator() {
#if defined(__GLIBC__)
    const char* off = std::getenv("EMFLOW_MALLOC_TUNING");
    if (off && std::strcmp(off, "off") == 0) return;
    if (!user_set_malloc("MALLOC_MMAP_THRESHOLD_", "glibc.malloc.mmap_threshold"))
        ::mallopt(M_MMAP_THRESHOLD, malloc_mmap_threshold);
#endif
}

}  // namespace emflow::detail
