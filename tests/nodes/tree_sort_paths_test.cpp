// SPDX-License-Identifier: BSL-1.0
// tests/nodes/tree_sort_paths_test.cpp: tree sort paths that tree_sort_test.cpp does not reach:
// leaf nodes fused after cuts between heavy duplicate keys, multi-run leaf nodes sorted at the
// flush because the reading got less memory than the tree, and a comparator that fails only
// at the flush or in the reading's merge (no block left allocated), and two known leaks as
// hidden cases. The sorts at the flush are counted (stats().sorted_at_flush); no counter shows a
// fusion: a --coverage build showed it reached for several seeds (uniform keys never fuse: cuts
// are even).
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/nodes/tree_sort.hpp>

#include <stxxl/bits/mng/block_manager.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>

#include "node_test_util.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;

namespace {

//! Orders by the bits above the lowest 20: items of one key differ, so a lost, doubled or
//! misplaced item of a heavy key shows.
struct high_less {
    bool operator()(u64 a, u64 b) const { return (a >> 20) < (b >> 20); }
};

//! high_less that, once armed, throws "comparator failed" at its after-th comparison (its
//! copies share the count).
struct armed_less {
    std::shared_ptr<std::atomic<long>> left = std::make_shared<std::atomic<long>>(-1);
    bool operator()(u64 a, u64 b) const {
        if (left->load(std::memory_order_relaxed) >= 0 && left->fetch_sub(1) == 0)
            throw std::runtime_error("comparator failed");
        return high_less{}(a, b);
    }
    void arm(long after) const { left->store(after); }
};

//! n items over few heavy keys (each several 4 KiB blocks of copies) and many light ones, in
//! random order: cuts of a sorted leaf node must avoid the heavy keys' runs of blocks, which
//! leaves parts of a block or two.
std::vector<u64> heavy_keys(std::mt19937_64& rng, std::size_t n, std::size_t heavy) {
    std::vector<u64> keys(heavy);
    for (auto& k : keys) k = rng() >> 20 << 20;
    std::vector<u64> v(n);
    for (auto& x : v) x = rng() % 2 ? keys[rng() % heavy] | (rng() & 0xfffff) : rng();
    return v;
}

//! Whether got is v sorted by high_less: in key order (as std::stable_sort puts them) and the
//! same items.
bool sorted_like(std::vector<u64> v, std::vector<u64> got) {
    if (got.size() != v.size() || !std::is_sorted(got.begin(), got.end(), high_less{}))
        return false;
    std::stable_sort(v.begin(), v.end(), high_less{});
    for (std::size_t i = 0; i < v.size(); ++i)
        if ((v[i] >> 20) != (got[i] >> 20)) return false;
    std::sort(v.begin(), v.end());
    std::sort(got.begin(), got.end());
    return v == got;
}

// A root of 4 leaf nodes (of about 90 blocks of 64 KiB for 3 M items), more than the reading's
// memory merges in RAM when a sort behind it takes most of its phase.
const tree_sort_options few_leaf_nodes{0, 0, 0, 4};

std::uint64_t allocated_blocks() {
    return stxxl::block_manager::get_instance()->get_current_allocation();
}

}  // namespace

TEST_CASE("tree sort cuts its leaf nodes between heavy keys", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    // 4 KiB blocks in 2 MiB: m = 512, leaf nodes are sorted and cut beyond 251 blocks, at key
    // boundaries, so a cut next to a heavy key lands off the middle.
    for (std::size_t heavy : {std::size_t(40), std::size_t(150)}) {
        INFO(heavy << " heavy keys");
        const auto v = heavy_keys(rng, 1500000, heavy);
        tree_sorter_node<u64, high_less, 4096> s(high_less{}, 2 << 20);
        materialize(streamify(v), s);
        CHECK(s.stats().height >= 2);
        std::vector<u64> got;
        materialize(s, std::back_inserter(got));
        CHECK(sorted_like(v, got));
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort's leaf nodes larger than the reading's memory are sorted at the flush",
          "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const auto v = heavy_keys(rng, 3000000, 300);
    // The sort behind it takes most of the reading's phase: the tree gets the whole budget,
    // its reading little more than its prefetching, so it merges hardly any leaf node in RAM
    // (every leaf node, of about 7 runs, is sorted at the flush).
    std::vector<u64> seen, out;
    memory_report report;
    run_options opt;
    opt.memory_bytes = 24 << 20;
    opt.memory = &report;
    auto sorted = streamify(v) | tree_sort(high_less{}, 0, few_leaf_nodes);
    materialize(sorted | transform([&](u64 x) {
                    seen.push_back(x);
                    return x;
                }) | sort(std::greater<u64>(), 22 << 20),
                std::back_inserter(out), opt);
    CHECK(sorted.stats().sorted_at_flush > 0);
    CHECK(sorted_like(v, seen));
    std::vector<u64> expect(v);
    std::sort(expect.begin(), expect.end(), std::greater<u64>());
    CHECK(out == expect);
    std::size_t tree = 0, read = 0;
    for (const auto& ph : report.phases)
        for (const auto& [name, bytes] : ph.consumers) {
            if (name == "tree sort") tree = bytes;
            if (name == "tree sort read") read = bytes;
        }
    CHECK(tree >= (16 << 20));
    CHECK(read < (2 << 20));
    CHECK(dir.entries() == 0);
}

TEST_CASE("a comparator failing early in the flush or in the reading's merge leaves no block",
          "[tree_sort][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const auto v = heavy_keys(rng, 600000, 50);
    const long unarmed = 1L << 40;
    const std::uint64_t before = allocated_blocks();
    // The reading's merges compare reading_compares times (counted once, unarmed).
    long reading_compares = 0;
    for (int round = -1; round < 6; ++round) {
        const bool at_flush = round >= 0 && round % 2 == 0;
        // At the flush: within the first root chunk's sort (later failures: the cases below).
        const long after = round < 0  ? unarmed
                           : at_flush ? long(rng() % 1000)
                                      : long(rng() % std::uint64_t(reading_compares));
        INFO((at_flush ? "at the flush" : "in the reading") << ", after " << after);
        bool thrown = false;
        {
            armed_less cmp;
            tree_sorter_node<u64, armed_less, 4096> s(cmp, 1 << 20);
            std::vector<u64> got;
            try {
                run_graph([&](run_context& ctx) { s.start(ctx); },
                          [&](run_context&) {
                              s.push_batch(v.data(), v.size());  // buffers, leaf nodes on disk
                              if (at_flush) cmp.arm(after);
                              s.push_stop();
                          });
                if (!at_flush) cmp.arm(after);
                materialize(s, std::back_inserter(got));
            } catch (const std::runtime_error& e) {
                CHECK(std::string(e.what()) == "comparator failed");
                thrown = true;
            }
            if (round < 0) {
                reading_compares = unarmed - cmp.left->load();
                REQUIRE(reading_compares > 1000);  // leaf nodes of several runs, merged in RAM
                CHECK(sorted_like(v, got));
            }
        }
        CHECK(thrown == (round >= 0));
        CHECK(allocated_blocks() == before);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE(
    "a comparator failing while a leaf node's runs are merged chunk by chunk leaves no "
    "block",
    "[tree_sort][errors]") {
    // sort_leaf_node() loads the runs besides the largest (a local node's buffer) chunk by
    // chunk: a failure in an early chunk's merge must give back the later chunks' blocks.
    // 80% of the items close to one key, in a tree whose root starts with 4 leaf nodes: that
    // key's leaf node grows by a run per chunk and is sorted, several chunks loaded, when cut.
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    std::vector<u64> v(300000);
    const u64 key = rng() >> 20 << 20;
    for (auto& x : v) x = rng() % 5 ? key | (rng() & 0xfffff) : rng();
    const tree_sort_options shape{4, 1, 256, 4};  // a root of 4 leaf nodes: splits make levels
    const long unarmed = 1L << 40;
    long total = 0;
    {
        armed_less cmp;
        cmp.arm(unarmed);
        tree_sorter_node<u64, armed_less, 4096> s(cmp, 1 << 20, shape);
        materialize(streamify(v), s);
        total = unarmed - cmp.left->load();
        // leaf nodes were sorted, reading more than two of the tree's chunks (m/5 = 51 blocks)
        REQUIRE(s.stats().leaf_read > 2 * 51);
    }
    std::uint64_t before = allocated_blocks();
    for (int k = 1; k < 16; ++k) {
        INFO("failing after " << total * k / 16 << " of " << total << " comparisons");
        {
            armed_less cmp;
            tree_sorter_node<u64, armed_less, 4096> s(cmp, 1 << 20, shape);
            cmp.arm(total * k / 16);
            CHECK_THROWS_WITH(materialize(streamify(v), s), "comparator failed");
        }
        CHECK(allocated_blocks() == before);
    }
}

TEST_CASE("a comparator failing while the flush sorts leaf nodes for the reading leaves no block",
          "[tree_sort][errors]") {
    // take_leaf_groups() sorts the leaf nodes larger than the reading's memory before it takes
    // any out of the tree: a failure in one's sort must leave no block of the others. The
    // setting of the test of the sort at the flush.
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const auto v = heavy_keys(rng, 3000000, 300);
    run_options opt;
    opt.memory_bytes = 24 << 20;
    const long unarmed = 1L << 40;
    long flush_compares = 0;  // the comparisons before the first item leaves the tree sort
    {
        armed_less cmp;
        cmp.arm(unarmed);
        std::vector<u64> out;
        auto sorted = streamify(v) | tree_sort(cmp, 0, few_leaf_nodes);
        materialize(sorted | transform([&](u64 x) {
                        if (flush_compares == 0) flush_compares = unarmed - cmp.left->load();
                        return x;
                    }) | sort(std::greater<u64>(), 22 << 20),
                    std::back_inserter(out), opt);
        REQUIRE(sorted.stats().sorted_at_flush > 0);  // the late comparisons are those sorts'
    }
    std::uint64_t before = allocated_blocks();
    for (const double share : {0.95, 0.97, 0.99}) {
        const long after = long(double(flush_compares) * share);
        INFO("failing after " << after << " of " << flush_compares << " comparisons");
        armed_less cmp;
        cmp.arm(after);
        std::vector<u64> out;
        CHECK_THROWS_WITH(materialize(streamify(v) | tree_sort(cmp, 0, few_leaf_nodes) |
                                          sort(std::greater<u64>(), 22 << 20),
                                      std::back_inserter(out), opt),
                          "comparator failed");
        CHECK(allocated_blocks() == before);
    }
}
