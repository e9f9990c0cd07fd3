// SPDX-License-Identifier: BSL-1.0
// emflow/ppq/config.hpp: the configuration of the parallel priority queue and its validation.
//
// ppq_options is what the user sets (0 = derive from memory_bytes); ppq_layout is the checked
// result the queue works with: block size in items, buffer sizes, and the memory split.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

namespace emflow {

//! The settings of a parallel_priority_queue. Every size left at 0 is derived from memory_bytes.
struct ppq_options {
    //! Total RAM the queue may use, all buffers and arrays included.
    std::size_t memory_bytes = std::size_t(512) << 20;
    //! Number of insertion heaps = threads that may bulk_push concurrently, and the number of
    //! threads of parallel sorts and merges. 0: hardware threads.
    unsigned num_threads = 0;
    //! External block size in bytes; rounded down to a multiple of lcm(sizeof(T), 4096).
    //! 0: memory_bytes / 256, between 64 KiB and 2 MiB.
    std::size_t block_size = 0;
    //! Write buffers used when merging into a new external array (at least 2 blocks per thread).
    //! 0: max(2 * num_threads blocks, memory_bytes / 32).
    std::size_t write_buffer_bytes = 0;
    //! Read (prefetch) buffers per external array, at least one block.
    //! 0: max(2 blocks, memory_bytes / 64).
    std::size_t read_buffer_bytes = 0;
    //! The extract buffer that external items are merged into for top()/pop(), at least one
    //! block. 0: max(1 block, memory_bytes / 64).
    std::size_t extract_buffer_bytes = 0;
    //! Capacity of each insertion heap (outside bulk phases). 0: memory_bytes / (16 threads),
    //! between 32 KiB and 2 MiB.
    std::size_t insertion_heap_bytes = 0;
    //! Arrays per level (internal or external) before the level is merged into the next one.
    unsigned max_arrays_per_level = 64;
};

//! The validated configuration of a queue (make_ppq_layout), in items where the queue counts
//! items: what parallel_priority_queue::layout() reports.
struct ppq_layout {
    unsigned threads = 1;            //!< insertion heaps and worker threads
    std::size_t block_bytes = 0;     //!< bytes per external block (a multiple of 4096)
    std::size_t block_items = 0;     //!< items per external block
    std::size_t write_blocks = 0;    //!< write buffer blocks
    std::size_t read_blocks = 0;     //!< read buffer blocks per external array
    std::size_t extract_items = 0;   //!< extract buffer capacity
    std::size_t heap_items = 0;      //!< insertion heap capacity (outside bulk phases)
    std::size_t max_per_level = 64;  //!< arrays per level before merging
    std::size_t memory_bytes = 0;    //!< the whole budget
    std::size_t fixed_bytes = 0;     //!< heaps, sort scratch, extract + limit buffers, writes
    std::size_t pool_bytes = 0;      //!< the rest: internal arrays and read buffers
};

namespace detail {

inline std::invalid_argument ppq_option_error(const std::string& param, std::size_t minimum,
                                              const std::string& why) {
    return std::invalid_argument("emflow::parallel_priority_queue: ppq_options." + param +
                                 " must be at least " + std::to_string(minimum) + " (" + why + ")");
}

}  // namespace detail

//! Checks cfg for items of item_bytes bytes and derives the defaults; throws
//! std::invalid_argument naming the parameter and its minimum.
inline ppq_layout make_ppq_layout(const ppq_options& cfg, std::size_t item_bytes) {
    ppq_layout r;
    r.threads =
        cfg.num_threads ? cfg.num_threads : std::max(1u, std::thread::hardware_concurrency());
    if (r.threads > 1024)
        throw std::invalid_argument(
            "emflow::parallel_priority_queue: ppq_options.num_threads must be at most 1024");
    const std::size_t M = cfg.memory_bytes;
    const std::size_t unit = std::lcm<std::size_t>(item_bytes, 4096);

    std::size_t block =
        cfg.block_size ? cfg.block_size : std::clamp<std::size_t>(M / 256, 64 << 10, 2 << 20);
    if (block < unit) {
        if (cfg.block_size)
            throw detail::ppq_option_error("block_size", unit, "lcm(sizeof(T), 4096)");
        block = unit;
    }
    r.block_bytes = block / unit * unit;
    r.block_items = r.block_bytes / item_bytes;

    r.write_blocks = cfg.write_buffer_bytes
                         ? cfg.write_buffer_bytes / r.block_bytes
                         : std::max<std::size_t>(2 * r.threads, M / 32 / r.block_bytes);
    if (r.write_blocks < 2 * r.threads)
        throw detail::ppq_option_error("write_buffer_bytes", 2 * r.threads * r.block_bytes,
                                       "two blocks per thread");
    // Even counts: the writer fills one half while the other half is being written.
    r.write_blocks += r.write_blocks % 2;
    r.read_blocks = cfg.read_buffer_bytes ? cfg.read_buffer_bytes / r.block_bytes
                                          : std::max<std::size_t>(2, M / 64 / r.block_bytes);
    if (r.read_blocks < 1)
        throw detail::ppq_option_error("read_buffer_bytes", r.block_bytes, "one block");
    std::size_t extract_bytes = cfg.extract_buffer_bytes
                                    ? cfg.extract_buffer_bytes
                                    : std::max<std::size_t>(r.block_bytes, M / 64);
    if (extract_bytes < r.block_bytes)
        throw detail::ppq_option_error("extract_buffer_bytes", r.block_bytes, "one block");
    r.extract_items = extract_bytes / item_bytes;
    std::size_t heap_bytes = cfg.insertion_heap_bytes
                                 ? cfg.insertion_heap_bytes
                                 : std::clamp<std::size_t>(M / 16 / r.threads, 32 << 10, 2 << 20);
    if (heap_bytes < 64 * item_bytes)
        throw detail::ppq_option_error("insertion_heap_bytes", 64 * item_bytes, "64 items");
    r.heap_items = heap_bytes / item_bytes;
    if (cfg.max_arrays_per_level < 2)
        throw detail::ppq_option_error("max_arrays_per_level", 2, "a merge needs two arrays");
    r.max_per_level = cfg.max_arrays_per_level;

    r.memory_bytes = M;
    // heaps + one heap of sort scratch + extract buffer + limit buffer + write buffers
    r.fixed_bytes = (r.threads + 1) * r.heap_items * item_bytes + 2 * r.extract_items * item_bytes +
                    r.write_blocks * r.block_bytes;
    // The pool must hold read buffers for at least 4 external arrays and one internal array.
    const std::size_t min_pool = 4 * r.read_blocks * r.block_bytes + r.heap_items * item_bytes;
    if (M < r.fixed_bytes + min_pool)
        throw detail::ppq_option_error(
            "memory_bytes", r.fixed_bytes + min_pool,
            "insertion heaps, extract and write buffers, and read buffers for "
            "four external arrays with these settings");
    r.pool_bytes = M - r.fixed_bytes;
    return r;
}

}  // namespace emflow
