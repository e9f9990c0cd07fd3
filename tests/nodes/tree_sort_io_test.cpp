// SPDX-License-Identifier: BSL-1.0
// tests/nodes/tree_sort_io_test.cpp: tree sort's blocks (about two passes: every block written
// once and read once, one level under the root made from the first chunk, runs of full blocks
// with the partial ones staged in RAM) and the orders that make it cut leaf nodes holding
// staged keys (ascending, descending, few keys, one key first), against std::sort.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/nodes/tree_sort.hpp>

#include <algorithm>
#include <functional>

#include "node_test_util.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t small_budget = 2 << 20;  // m = 32: a root of 8 leaf nodes of <= 11 blocks
constexpr std::size_t block_items = (std::size_t(64) << 10) / sizeof(u64);

//! Tree-sorts v within small_budget; checks the result against std::sort, returns the stats.
buffer_tree_stats sort_and_check(const std::vector<u64>& v, tree_sort_options opt = {}) {
    tree_sorter_node<u64, std::less<u64>> s(std::less<u64>(), small_budget, opt);
    materialize(streamify(v), s);
    std::vector<u64> got, expect(v);
    materialize(s, std::back_inserter(got));
    std::sort(expect.begin(), expect.end());
    CHECK(got == expect);
    return s.stats();
}

}  // namespace

TEST_CASE("tree sort of random keys writes and reads each block about once", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const std::size_t n = 560000 + rng() % 1000;  // 69 blocks: 8 leaf nodes, none cut
    const auto st = sort_and_check(emflow_test::random_values(rng, n));
    const std::size_t blocks = (n + block_items - 1) / block_items;
    CHECK(st.height == 2);
    CHECK(st.pushed_internal == 0);          // no internal buffers
    CHECK(st.leaf_read == 0);                // no leaf node sorted
    CHECK(st.blocks_written <= blocks + 8);  // full blocks, one partial block per leaf node
    CHECK(st.blocks_read == st.blocks_written);
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort of less than a chunk keeps one leaf node", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const auto st = sort_and_check(emflow_test::random_values(rng, 20000 + rng() % 1000));
    CHECK(st.height == 1);
    CHECK(st.blocks_written == 3);
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort cuts leaf nodes with staged keys: ordered, few and equal keys",
          "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const std::size_t n = 700000 + rng() % 1000;
    std::vector<u64> up(n);
    for (std::size_t i = 0; i < n; ++i) up[i] = i / 3;  // every later key in the last node
    SECTION("ascending") { CHECK(sort_and_check(up).leaf_read > 0); }
    SECTION("descending") {
        std::reverse(up.begin(), up.end());
        CHECK(sort_and_check(up).leaf_read > 0);
    }
    SECTION("few keys") { sort_and_check(emflow_test::random_values(rng, n, 40)); }
    SECTION("one key in the first chunk, then random keys") {
        auto v = emflow_test::random_values(rng, n);
        std::fill(v.begin(), v.begin() + 100000, u64(7));
        sort_and_check(v);
    }
    SECTION("a root of 64 leaf nodes: staging full, partial blocks") {
        const auto st = sort_and_check(emflow_test::random_values(rng, n), {0, 0, 0, 64});
        CHECK(st.height == 2);
    }
    CHECK(dir.entries() == 0);
}
