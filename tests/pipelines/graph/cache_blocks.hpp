// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/cache_blocks.hpp: the contents the block cache tests put in for a block
// index, different for any two indices (a cache that hands out the wrong block is seen).
#pragma once

#include <emflow/pipelines/graph/detail/block_cache.hpp>

#include <cstdint>
#include <vector>

namespace graph_test {

//! Block index's contents: the bytes of a bijective hash of the index, offset by position
//! (distinct hashes differ in one of the first 8 bytes).
inline std::vector<char> block_of(std::uint64_t index) {
    const std::uint64_t h = index * 0x9E3779B97F4A7C15ull;
    std::vector<char> b(emflow::pipelines::graph::detail::block_cache::block_bytes);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = char((h >> (i % 8 * 8)) + i);
    return b;
}

}  // namespace graph_test
