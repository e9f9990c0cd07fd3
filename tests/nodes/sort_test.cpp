// SPDX-License-Identifier: BSL-1.0
// Sort node and push-fed sorter against std::stable_sort's multiset and order: random inputs
// with duplicates, empty, one element, several runs under a small budget, async and synchronous
// run formation, parallel and sequential run sorting and merging; plain comparators over the
// whole value range; merges in several passes; fed by split/async push; errors (budget,
// throwing comparator, full disk).
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>

#include <algorithm>
#include <numeric>

#include "node_test_util.hpp"
#include "test_env.hpp"
#include "throwing_less.hpp"

using namespace emflow;
using emflow_test::drain_mixed;
using emflow_test::throwing_less;
using u64 = std::uint64_t;

namespace {

using less_u64 = std::less<u64>;
using greater_u64 = std::greater<u64>;

std::vector<sort_options> all_options() {
    return {{true, true}, {true, false}, {false, true}, {false, false}};
}

constexpr std::size_t small_budget = 4 << 20;  // about 1.4 MiB runs: several runs per test

}  // namespace

TEST_CASE("sort node sorts like std::sort with every option", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000),
                              std::size_t(700000 + rng() % 10000)}) {
            auto v = emflow_test::random_values(rng, n, n / 3 + 1);  // duplicates
            auto s = streamify(v) | transform([](u64 x) { return x * 2; }) |
                     sort(less_u64{}, small_budget, opt);
            auto got = drain_mixed(s, rng);
            std::vector<u64> expect(v);
            for (auto& x : expect) x *= 2;
            std::sort(expect.begin(), expect.end());
            CHECK(got == expect);
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("push-fed sorter behind split and async push, pulled by another path", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        std::size_t n = 500000 + rng() % 1000;
        auto v = emflow_test::random_values(rng, n);
        sorter_node<u64, greater_u64> down(greater_u64{}, small_budget, opt);
        auto up = split(streamify(v), async_push(down, elements(1 + rng() % 10000))) |
                  sort(less_u64{}, small_budget, opt);
        auto both = zip(up, down);
        auto got = drain_mixed(both, rng);
        std::vector<u64> asc(v);
        std::sort(asc.begin(), asc.end());
        REQUIRE(got.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(got[i].first == asc[i]);
            if (got[i].second != asc[n - 1 - i]) {
                CHECK(got[i].second == asc[n - 1 - i]);
                break;
            }
        }
        CHECK(down.pushed() == n);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a sorter filled in one graph is pulled in a later one", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        auto v = emflow_test::random_values(rng, 500000 + rng() % 1000);
        sorter_node<u64, less_u64> s(less_u64{}, small_budget, opt);
        materialize(streamify(v), s);  // the runs outlive this graph
        std::vector<u64> got;
        materialize(s | transform([](u64 x) { return x + 1; }), std::back_inserter(got));
        std::sort(v.begin(), v.end());
        for (auto& x : v) ++x;
        CHECK(got == v);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("sorter on 1 thread", "[sort]") {
    set_flow_concurrency(1);
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    auto v = emflow_test::random_values(rng, 600000);
    std::vector<u64> got;
    materialize(streamify(v) | async_pull(elements(1000)) | sort(less_u64{}, small_budget),
                std::back_inserter(got));
    std::sort(v.begin(), v.end());
    CHECK(got == v);
}

TEST_CASE("sorter rejects a too small memory budget", "[sort][errors]") {
    emflow_test::configure_test_disks();
    std::vector<u64> v(10), out;
    CHECK_THROWS_AS(materialize(streamify(v) | sort(less_u64{}, 1000), std::back_inserter(out)),
                    std::invalid_argument);
}

TEST_CASE("plain comparators sort the whole value range, equal keys and pairs", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        std::vector<u64> v(400000 + rng() % 1000);
        for (auto& x : v) x = rng() % 4 == 0 ? (rng() % 2 ? ~u64(0) : 0) : rng();
        std::vector<u64> up, down, same;
        materialize(streamify(v) | sort(std::less<>(), small_budget, opt), std::back_inserter(up));
        materialize(streamify(v) | sort(std::greater<>(), small_budget, opt),
                    std::back_inserter(down));
        std::vector<u64> expect(v);
        std::sort(expect.begin(), expect.end());
        CHECK(up == expect);
        std::reverse(expect.begin(), expect.end());
        CHECK(down == expect);
        std::vector<u64> equal(v.size(), ~u64(0));
        materialize(streamify(equal) | sort(std::less<>(), small_budget, opt),
                    std::back_inserter(same));
        CHECK(same == equal);
        // std::pair is not trivially copyable: sorted by tbb::parallel_sort / std::sort
        std::vector<std::pair<u64, u64>> pairs(v.size()), got;
        for (std::size_t i = 0; i < v.size(); ++i) pairs[i] = {v[i] % 7, v[i]};
        materialize(streamify(pairs) | sort(std::less<>(), small_budget, opt),
                    std::back_inserter(got));
        std::sort(pairs.begin(), pairs.end());
        CHECK(got == pairs);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("an input of one run is sorted in RAM, without disk I/O", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        auto v = emflow_test::random_values(rng, 100000 + rng() % 1000);  // 0.8 MB: one run
        std::vector<u64> got;
        const auto before = stxxl::stats_data(*stxxl::stats::get_instance());
        materialize(streamify(v) | sort(std::greater<>(), small_budget, opt),
                    std::back_inserter(got));
        const auto io = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        std::sort(v.begin(), v.end(), std::greater<>());
        CHECK(got == v);
        CHECK(io.get_written_volume() == 0);
        CHECK(io.get_read_volume() == 0);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a stated input length that fits the whole run memory makes one run with async runs",
          "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    auto written = [&](const std::vector<u64>& v, std::uint64_t stated) {
        std::vector<u64> got;
        const auto before = stxxl::stats_data(*stxxl::stats::get_instance());
        materialize(streamify(v) | sort(less_u64{}, small_budget, sort_options{true, true, stated}),
                    std::back_inserter(got));
        const auto io = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        auto expect = v;
        std::sort(expect.begin(), expect.end());
        CHECK(got == expect);
        return io.get_written_volume();
    };
    // 1.9 MB: more than one of the two async half buffers of small_budget, less than both.
    const auto fits = emflow_test::random_values(rng, 250000 - rng() % 1000);
    CHECK(written(fits, 0) > 0);  // unknown length: two half-buffer runs on disk
    CHECK(written(fits, fits.size()) == 0);
    // A length stated too short: the one buffer's runs go to disk, formed as they fill.
    const auto longer = emflow_test::random_values(rng, 1000000 + rng() % 1000);
    CHECK(written(longer, 1000) > 0);
    CHECK(dir.entries() == 0);
}

TEST_CASE("a merge over more runs than its budget reads at once takes extra passes", "[sort]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    // The least budget: runs of 64 Ki items, a merge that reads 6 blocks at once: 30 runs
    // need two passes before the last one.
    constexpr std::size_t least = 2 << 20;
    for (auto opt : {sort_options{true, true}, sort_options{false, false}}) {
        auto v = emflow_test::random_values(rng, 30 * 65536 - rng() % 1000, 5000);
        std::vector<u64> got;
        const auto before = stxxl::stats_data(*stxxl::stats::get_instance());
        materialize(streamify(v) | sort(std::greater<>(), least, opt), std::back_inserter(got));
        const auto io = stxxl::stats_data(*stxxl::stats::get_instance()) - before;
        std::sort(v.begin(), v.end(), std::greater<>());
        CHECK(got == v);
        CHECK(std::uint64_t(io.get_written_volume()) > 3 * v.size() * sizeof(u64) / 2);  // passes
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a full disk reaches the caller as stxxl::io_error, and frees every block",
          "[sort][errors]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{8 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : {sort_options{true, true}, sort_options{false, false}}) {
        auto big = emflow_test::random_values(rng, std::size_t(2) << 20);  // 16 MiB of runs
        std::vector<u64> none;
        CHECK_THROWS_AS(
            materialize(streamify(big) | sort(less_u64{}, 2 << 20, opt), std::back_inserter(none)),
            stxxl::io_error);
        CHECK(dir.entries() == 0);
        // every block is back: a sort that fits the disk works
        auto v = emflow_test::random_values(rng, 300000);
        std::vector<u64> got;
        materialize(streamify(v) | sort(less_u64{}, 2 << 20, opt), std::back_inserter(got));
        std::sort(v.begin(), v.end());
        CHECK(got == v);
    }
}

TEST_CASE("a throwing comparator in a parallel run reaches the caller without leaks",
          "[sort][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto opt : all_options()) {
        for (u64 bad_pos : {u64(10), u64(450000), u64(899999)}) {
            std::vector<u64> v(900000);
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1 + rng() % 1000000000;
            u64 bad = 1000000007;
            v[bad_pos] = bad;
            std::vector<std::pair<u64, u64>> out;
            sorter_node<u64, less_u64> side(less_u64{}, small_budget, opt);
            auto g = split(streamify(v) | async_pull(elements(5000)), async_push(side)) |
                     sort(throwing_less{bad}, small_budget, opt);
            CHECK_THROWS_WITH(materialize(zip(g, side), std::back_inserter(out)),
                              "comparator failed");
        }
    }
    CHECK(dir.entries() == 0);
}
