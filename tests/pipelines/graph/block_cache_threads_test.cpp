// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/block_cache_threads_test.cpp: the windows' block cache shared by threads,
// as the search's OpenMP threads share it, but with std::thread so that ThreadSanitizer sees
// every synchronization (its suite models an OpenMP region's fork and join only): reads and
// inserts of colliding blocks race for the sets' locks and clock hands, and every block read
// must come back whole and as put in.
#include <emflow/pipelines/graph/detail/block_cache.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "cache_blocks.hpp"
#include "test_env.hpp"

using emflow::pipelines::graph::detail::block_cache;
using graph_test::block_of;

namespace {

//! What the threads saw (Catch2's assertions are not thread-safe: the main thread checks).
struct tally {
    std::atomic<std::uint64_t> hits{0}, misses{0}, wrong{0};
};

//! One thread's reads of random blocks (and across two), inserting what it missed.
void hammer(block_cache& cache, const std::vector<std::vector<char>>& blocks, std::uint64_t seed,
            int steps, tally& t) {
    std::mt19937_64 rng(seed);
    const std::size_t bb = block_cache::block_bytes;
    std::vector<char> out(2 * bb);
    for (int i = 0; i < steps; ++i) {
        const std::uint64_t index = rng() % (blocks.size() - 1);
        const std::size_t at = std::size_t(rng() % bb);  // the end of one, the start of the next
        if (!cache.read(index * bb + at, bb, out.data())) {
            ++t.misses;
            cache.insert(index, 1, blocks[index].data());
            cache.insert(index + 1, 1, blocks[index + 1].data());
            continue;
        }
        ++t.hits;
        const auto& first = blocks[index];
        const auto tail = out.begin() + std::ptrdiff_t(bb - at);  // where the next block begins
        if (!std::equal(out.begin(), tail, first.begin() + std::ptrdiff_t(at)) ||
            !std::equal(tail, out.begin() + std::ptrdiff_t(bb), blocks[index + 1].begin()))
            ++t.wrong;
    }
}

}  // namespace

TEST_CASE("threads sharing the block cache read every held block whole and as put in", "[graph]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::vector<std::vector<char>> blocks;
    for (std::uint64_t i = 0; i < 512; ++i) blocks.push_back(block_of(i));
    // 64 blocks for 512: sets overflow, the clock hands turn while other threads read the set.
    block_cache cache(64);
    tally t;
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < 4; ++k)
        threads.emplace_back(hammer, std::ref(cache), std::cref(blocks), seed + k, 20000,
                             std::ref(t));
    for (auto& th : threads) th.join();
    CHECK(t.wrong == 0);
    CHECK(t.hits > 0);  // the reads raced with inserts, not only with misses
    CHECK(t.misses > 0);
}
