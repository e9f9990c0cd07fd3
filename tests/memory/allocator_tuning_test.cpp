// SPDX-License-Identifier: BSL-1.0
// emflow/detail/allocator_tuning.hpp through configure_external_memory(): after it, glibc maps
// a large block even after a larger one was freed (the dynamic threshold would have put it on
// the heap), unless the user chose the threshold (MALLOC_MMAP_THRESHOLD_) or turned the tuning
// off (EMFLOW_MALLOC_TUNING=off). Each test case runs in a process of its own (ctest), so the
// environment a case sets is seen by its own configure call only.
#include <catch2/catch.hpp>

#include <emflow/external_memory.hpp>

#include <malloc.h>

#include <cstdlib>

#include "test_env.hpp"

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

//! Blocks glibc has mapped on their own, now.
std::size_t mapped_blocks() { return ::mallinfo2().hblks; }

//! True if a block of n bytes is mapped on its own (the compiler may not elide the malloc:
//! the block escapes into an asm statement).
bool mapped(std::size_t n) {
    const std::size_t before = mapped_blocks();
    void* p = std::malloc(n);
    REQUIRE(p);
    asm volatile("" : : "r"(p) : "memory");
    const bool on_its_own = mapped_blocks() == before + 1;
    std::free(p);
    return on_its_own;
}

//! True if a 1 MiB block is mapped on its own after an 8 MiB one was freed (which raises
//! glibc's dynamic threshold to 8 MiB).
bool large_block_mapped_after_larger_free() {
    mapped(8 * MiB);
    return mapped(MiB);
}

}  // namespace

TEST_CASE("configure_external_memory fixes glibc's mmap threshold", "[memory][allocator]") {
    ::unsetenv("MALLOC_MMAP_THRESHOLD_");
    ::unsetenv("EMFLOW_MALLOC_TUNING");
    emflow_test::configure_test_disks();
    CHECK(large_block_mapped_after_larger_free());
    CHECK(mapped(emflow::detail::malloc_mmap_threshold));
}

TEST_CASE("the tuning leaves a threshold the user set", "[memory][allocator]") {
    ::setenv("MALLOC_MMAP_THRESHOLD_", "1", 1);  // read by glibc at start only: still dynamic
    emflow_test::configure_test_disks();
    CHECK_FALSE(large_block_mapped_after_larger_free());
}

TEST_CASE("EMFLOW_MALLOC_TUNING=off leaves glibc's defaults", "[memory][allocator]") {
    ::setenv("EMFLOW_MALLOC_TUNING", "off", 1);
    emflow_test::configure_test_disks();
    CHECK_FALSE(large_block_mapped_after_larger_free());
}
