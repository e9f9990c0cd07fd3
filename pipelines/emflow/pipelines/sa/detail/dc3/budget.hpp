// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/budget.hpp: DC3's memory budget. Every level gets the whole
// budget: the levels above keep only the block lists of their external vectors (page caches are
// dropped once a vector is written). Each graph of a level runs under the budget (graph_run) and
// its sorters take what the runtime assigns them by phase (emflow/memory_budget.hpp): a sort's run
// formation has its phase to itself or shares it with the merge feeding it. The phase with the most
// concurrent memory is the last one: three sorters forming runs (then merging) and, in parallel
// pipelining, five async nodes (the two pushes into classes 1 and 2, the pulls after the three
// merges). A level whose text fits in RAM runs the in-memory base case.
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/memory_budget.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/in_memory.hpp>

#include <stxxl/vector>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace emflow::pipelines::sa::detail::dc3 {

//! A construction's settings inside DC3: the caller's, and the longest text a level runs in RAM
//! (besides the budget's limit; tests lower it to drive small texts through external levels).
struct dc3_options : sa_options {
    std::uint64_t in_memory_symbols = ~std::uint64_t(0);  //!< longer texts run externally
};

//! Each of the two buffers of an async node.
inline constexpr std::uint64_t async_buffer_bytes = 256 << 10;
//! Async nodes alive at once in parallel pipelining (the last phase of a level).
inline constexpr std::uint64_t async_nodes = 5;
//! The in-memory base case's reader and writer of external vectors.
inline constexpr std::uint64_t in_memory_reserve = 2 << 20;

//! Least memory of one sorter: emflow::sorter_node's own check (writer and run buffers of
//! 256 KiB blocks), and what STXXL's merger needs to merge more runs than fit at once (it merges
//! recursively with two prefetch and two write blocks per disk, one output and two input blocks).
//! The external memory must be configured.
inline std::uint64_t sorter_minimum(bool async_runs) {
    const std::uint64_t block = 256 * 1024;
    const std::uint64_t disks = stxxl::config::get_instance()->disks_number();
    return std::max(4 * block + (async_runs ? 2 : 1) * 2 * block, (4 * disks + 3) * block);
}

//! The fixed buffers of a phase of an external level, as its nodes declare them (at most): the
//! text's file reader and the output's file writer (2 MiB each), the classes' scan's two rank
//! readers, chunks and windows (1 MiB), the page cache. The external memory must be configured.
inline std::uint64_t io_reserve() {
    const std::uint64_t disks = stxxl::config::get_instance()->disks_number();
    return (5 << 20) + 2 * (2 * disks + 1) * vector_block_bytes + page_cache_bytes;
}

//! Memory outside the sorters in a phase of an external level.
inline std::uint64_t external_reserve(pipelining mode) {
    return io_reserve() + (mode == pipelining::parallel ? async_nodes * 2 * async_buffer_bytes : 0);
}

//! Least budget of an external level.
inline std::uint64_t external_minimum(pipelining mode) {
    return external_reserve(mode) + 3 * sorter_minimum(mode == pipelining::parallel);
}

//! True when the in-memory base case uses 32-bit integers for n symbols with indices Index.
template <class Index>
constexpr bool in_memory_32(std::uint64_t n) {
    return sizeof(Index) <= 4 || n + 4 < std::numeric_limits<std::uint32_t>::max();
}

//! Budget of the in-memory base case for n symbols.
template <class Index>
constexpr std::uint64_t in_memory_need(std::uint64_t n) {
    if (n > std::uint64_t(1) << 56) return ~std::uint64_t(0);  // beyond any RAM (and overflow)
    return in_memory_reserve + (in_memory_32<Index>(n) ? in_memory_bytes<std::uint32_t>(n)
                                                       : in_memory_bytes<std::uint64_t>(n));
}

//! True if a level of n symbols runs in RAM (the base case of the recursion).
template <class Index>
bool runs_in_memory(std::uint64_t n, const dc3_options& s) {
    return in_memory_need<Index>(n) <= s.memory_bytes && n <= s.in_memory_symbols;
}

//! Least budget of DC3 on n symbols.
template <class Index>
std::uint64_t minimum_budget(std::uint64_t n, const dc3_options& s) {
    const std::uint64_t external = external_minimum(s.mode);
    return n > s.in_memory_symbols ? external : std::min(in_memory_need<Index>(n), external);
}

//! Elements of T in one async buffer.
template <class T>
constexpr std::size_t async_elems() {
    return std::max<std::size_t>(1, async_buffer_bytes / sizeof(T));
}

}  // namespace emflow::pipelines::sa::detail::dc3
