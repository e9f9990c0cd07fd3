// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/params.hpp: a buffer tree's sizes from its memory and the caller's
// choices, with the paper's tuned defaults: (a, b) = (m/32, m/8), buffers of m/2 blocks.
#pragma once

#include <emflow/detail/buffer_tree/tree.hpp>
#include <emflow/memory_budget.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace emflow::detail::buffer_tree {

//! The least memory of a tree of blocks of block_bytes: 32 blocks (m >= 32 keeps a >= 1 and
//! b >= 4 by default, and the buffers below m).
constexpr std::size_t minimum_memory(std::size_t block_bytes) { return 32 * block_bytes; }

//! The sizes of a tree within memory bytes; fanout_max, fanout_min, buffer_blocks: 0 picks the
//! default. Buffers of it (file comment of buffer_tree.hpp): the root's buffer in RAM, a sorted
//! chunk and its merge scratch, m/4 blocks each, m/16 reads and m/16 writes in flight (and
//! half as many of each for leaves), a few single blocks. Throws std::invalid_argument.
inline tree_params resolve_params(std::size_t memory, std::size_t block_bytes,
                                  std::size_t request_block_items, std::size_t fanout_max,
                                  std::size_t fanout_min, std::size_t buffer_blocks) {
    if (memory < minimum_memory(block_bytes))
        throw std::invalid_argument("emflow: buffer tree memory of " + format_mib(memory, false) +
                                    " is too small (at least " +
                                    format_mib(minimum_memory(block_bytes), true) + ")");
    const std::size_t m = memory / block_bytes;
    const std::size_t b = fanout_max ? fanout_max : std::max<std::size_t>(4, m / 8);
    const std::size_t a = fanout_min ? fanout_min : std::max<std::size_t>(1, b / 4);
    if (b < 2 * a)
        throw std::invalid_argument("emflow: buffer tree fan-out (a, b) = (" + std::to_string(a) +
                                    ", " + std::to_string(b) + ") needs b >= 2a");
    const std::size_t buffer = buffer_blocks ? buffer_blocks : m / 2;
    return {a,
            b,
            buffer,
            (m / 4) * request_block_items,
            std::max<std::size_t>(2, m / 16),
            std::max<std::size_t>(2, m / 16)};
}

//! The sizes of a dictionary (buffer_tree) within memory bytes: resolve_params' with an internal
//! root of up to max(b, m/4) children, which holds back at most m/8 blocks of requests (within
//! its buffer of m/4: tree.hpp's file comment).
inline tree_params resolve_dictionary_params(std::size_t memory, std::size_t block_bytes,
                                             std::size_t request_block_items,
                                             std::size_t fanout_max, std::size_t fanout_min,
                                             std::size_t buffer_blocks) {
    tree_params p = resolve_params(memory, block_bytes, request_block_items, fanout_max, fanout_min,
                                   buffer_blocks);
    const std::size_t m = memory / block_bytes;
    p.root_fanout = std::max(p.fanout_max, m / 4);
    p.root_hold_items = (m / 8) * request_block_items;
    return p;
}

//! The sizes of a tree that only sorts (tree.hpp's file comment) within memory bytes:
//! resolve_params' with chunks of m/5 blocks (the root's buffer, the chunk and its scratch), a
//! chunk's leaf blocks in flight (written while the next chunk is sorted), m/8 blocks of staged
//! keys, a root of root_fanout leaf nodes (0: m/4, at least b) and leaf
//! nodes of at most (m - 8)/2 - 1 blocks (the reader merges one with its last staged block in
//! half of its memory, less 8 blocks of prefetching, when it has as much as the tree).
inline tree_params resolve_sort_params(std::size_t memory, std::size_t block_bytes,
                                       std::size_t request_block_items, std::size_t fanout_max,
                                       std::size_t fanout_min, std::size_t buffer_blocks,
                                       std::size_t root_fanout) {
    tree_params p = resolve_params(memory, block_bytes, request_block_items, fanout_max, fanout_min,
                                   buffer_blocks);
    const std::size_t m = memory / block_bytes;
    p.chunk_items = (m / 5) * request_block_items;
    p.leaf_write_depth = m / 5;
    p.root_fanout = root_fanout ? root_fanout : std::max(p.fanout_max, m / 4);
    p.stage_items = (m / 8) * request_block_items;
    p.leaf_node_blocks = (m - 8) / 2 - 1;
    return p;
}

}  // namespace emflow::detail::buffer_tree
