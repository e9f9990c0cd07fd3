// SPDX-License-Identifier: BSL-1.0
// tests/nodes/tree_sort_test.cpp: tree sort node and push-fed tree sorter against std::sort on
// the sort node tests' element types (u64 by std::less, std::greater and plain comparators,
// std::pair), duplicates and one repeated key, empty and one element, budgets small enough for
// several levels, few keys at the default fan-out; fed by split/async push; automatic memory in a
// run's budget; errors (budget, throwing comparator, a full disk).
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/nodes/tree_sort.hpp>

#include <algorithm>

#include "node_test_util.hpp"
#include "test_env.hpp"
#include "throwing_less.hpp"

using namespace emflow;
using emflow_test::drain_mixed;
using emflow_test::throwing_less;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t small_budget = 2 << 20;  // 32 blocks of 64 KiB: (a, b) = (1, 4)

}  // namespace

TEST_CASE("tree sort sorts like std::sort", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000),
                          std::size_t(1500000 + rng() % 10000)}) {
        auto v = emflow_test::random_values(rng, n, n / 3 + 1);  // duplicates
        auto s = streamify(v) | transform([](u64 x) { return x * 2; }) |
                 tree_sort(std::less<u64>(), small_budget);
        auto got = drain_mixed(s, rng);
        std::vector<u64> expect(v);
        for (auto& x : expect) x *= 2;
        std::sort(expect.begin(), expect.end());
        CHECK(got == expect);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort: plain comparators over the whole range, one key and pairs", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    std::vector<u64> v(600000 + rng() % 1000);
    for (auto& x : v) x = rng() % 4 == 0 ? (rng() % 2 ? ~u64(0) : 0) : rng();
    std::vector<u64> up, down, same;
    materialize(streamify(v) | tree_sort(std::less<>(), small_budget), std::back_inserter(up));
    materialize(streamify(v) | tree_sort(std::greater<>(), small_budget), std::back_inserter(down));
    std::vector<u64> expect(v);
    std::sort(expect.begin(), expect.end());
    CHECK(up == expect);
    std::reverse(expect.begin(), expect.end());
    CHECK(down == expect);
    std::vector<u64> equal(v.size(), ~u64(0));
    materialize(streamify(equal) | tree_sort(std::less<>(), small_budget),
                std::back_inserter(same));
    CHECK(same == equal);
    std::vector<std::pair<u64, u64>> pairs(v.size()), got;
    for (std::size_t i = 0; i < v.size(); ++i) pairs[i] = {v[i] % 7, v[i]};
    materialize(streamify(pairs) | tree_sort(std::less<>(), small_budget), std::back_inserter(got));
    std::sort(pairs.begin(), pairs.end());
    CHECK(got == pairs);
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort with other fan-outs builds several levels", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    auto v = emflow_test::random_values(rng, 1200000);
    std::vector<u64> expect(v);
    std::sort(expect.begin(), expect.end());
    for (std::size_t b : {std::size_t(4), std::size_t(8), std::size_t(16)}) {
        tree_sorter_node<u64, std::less<u64>> s(std::less<u64>(), small_budget,
                                                tree_sort_options{b, b / 4, 0});
        materialize(streamify(v), s);
        CHECK(s.stats().height >= (b == 4 ? 3u : 2u));
        CHECK(s.stats().block_pushes > 0);
        std::vector<u64> got;
        materialize(s, std::back_inserter(got));
        CHECK(got == expect);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort of few keys at the default fan-out: leaf nodes cut between keys",
          "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    auto v = emflow_test::random_values(rng, 2600000, 60);  // a few blocks per key
    std::vector<u64> expect(v), got;
    std::sort(expect.begin(), expect.end());
    materialize(streamify(v) | tree_sort(std::less<u64>(), 16 << 20), std::back_inserter(got));
    CHECK(got == expect);
    CHECK(dir.entries() == 0);
}

TEST_CASE("push-fed tree sorter behind split and async push, pulled by another path",
          "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    std::size_t n = 500000 + rng() % 1000;
    auto v = emflow_test::random_values(rng, n);
    tree_sorter_node<u64, std::greater<u64>> down(std::greater<u64>(), small_budget);
    auto up = split(streamify(v), async_push(down, elements(1 + rng() % 10000))) |
              tree_sort(std::less<u64>(), small_budget);
    auto both = zip(up, down);
    auto got = drain_mixed(both, rng);
    std::vector<u64> asc(v);
    std::sort(asc.begin(), asc.end());
    REQUIRE(got.size() == n);
    bool same = true;
    for (std::size_t i = 0; i < n && same; ++i)
        same = got[i].first == asc[i] && got[i].second == asc[n - 1 - i];
    CHECK(same);
    CHECK(down.pushed() == n);
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort with automatic memory inside a run's budget", "[tree_sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    auto v = emflow_test::random_values(rng, 800000);
    std::vector<u64> got;
    memory_report report;
    run_options opt;
    opt.memory_bytes = 8 << 20;
    opt.memory = &report;
    materialize(streamify(v) | tree_sort(std::less<u64>()), std::back_inserter(got), opt);
    std::sort(v.begin(), v.end());
    CHECK(got == v);
    CHECK(report.peak_held <= opt.memory_bytes);
    bool declared = false;
    for (const auto& ph : report.phases)
        for (const auto& [name, bytes] : ph.consumers)
            if (name == "tree sort") declared = bytes >= (2 << 20);
    CHECK(declared);
    CHECK(dir.entries() == 0);
}

TEST_CASE("tree sort rejects a too small memory budget", "[tree_sort][errors]") {
    emflow_test::configure_test_disks();
    std::vector<u64> v(10), out;
    CHECK_THROWS_AS(
        materialize(streamify(v) | tree_sort(std::less<u64>(), 100000), std::back_inserter(out)),
        std::invalid_argument);
}

TEST_CASE("a throwing comparator in a tree sort reaches the caller without leaks",
          "[tree_sort][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (u64 bad_pos : {u64(10), u64(450000), u64(899999)}) {
        std::vector<u64> v(900000);
        for (auto& x : v) x = 1 + rng() % 1000000000;
        const u64 bad = 1000000007;
        v[bad_pos] = bad;
        std::vector<u64> out;
        CHECK_THROWS_WITH(materialize(streamify(v) | tree_sort(throwing_less{bad}, small_budget),
                                      std::back_inserter(out)),
                          "comparator failed");
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a full disk in a tree sort reaches the caller as stxxl::io_error, no file left",
          "[tree_sort][errors]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{4 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    std::mt19937_64 rng(emflow_test::test_seed());
    std::vector<u64> v(u64(1) << 20), out;  // 8 MiB of items on a 4 MiB disk
    for (auto& x : v) x = rng();
    CHECK_THROWS_AS(materialize(streamify(v) | tree_sort(std::less<u64>(), small_budget),
                                std::back_inserter(out)),
                    stxxl::io_error);
    CHECK(dir.entries() == 0);
}
