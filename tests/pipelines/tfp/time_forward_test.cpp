// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/pipelines/tfp/time_forward.hpp: the bulk-parallel time-forward loop over the PPQ,
// with next_k bulks and with limit rules, and its error paths.
#include <emflow/pipelines/tfp/limit_rules.hpp>
#include <emflow/pipelines/tfp/time_forward.hpp>
#include <emflow/ppq.hpp>

#include <oneapi/tbb/parallel_for.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "test_env.hpp"
#include "throwing_greater.hpp"

namespace {

using min_queue = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

//! A queue budget small enough that the runs below spill to disk.
emflow::ppq_options small_queue() {
    emflow::ppq_options cfg;
    cfg.memory_bytes = 8u << 20;
    cfg.num_threads = 2;
    return cfg;
}

//! The successors of x in the test workload: a deterministic pseudo-random fan-out of 0..2
//! items, each strictly greater than x, none beyond `bound`.
std::vector<std::uint64_t> successors(std::uint64_t x, std::uint64_t bound) {
    std::uint64_t h = (x + 1) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    std::vector<std::uint64_t> out;
    for (unsigned i = 0; i < h % 3; ++i) {
        const std::uint64_t y = x + 1 + (h >> (8 + 10 * i)) % 4096;
        if (y < bound) out.push_back(y);
    }
    return out;
}

//! Runs the workload from `seeds` with `rule`; checks against a shadow multiset of the queue's
//! contents that every bulk is exactly what it should be: the next k items, or the items before
//! the limit (the first max_bulk of them, truncated() if more were left), and that every item
//! pushed is popped exactly once.
template <typename Rule>
emflow::pipelines::tfp::time_forward_stats run_workload(Rule&& rule, std::size_t seeds,
                                                        std::uint64_t bound,
                                                        std::size_t max_bulk = SIZE_MAX) {
    min_queue pq(std::greater<std::uint64_t>(), small_queue());
    std::mutex m;
    std::multiset<std::uint64_t> shadow;
    std::uint64_t pushed = 0, popped = 0;
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t i = 0; i < seeds; ++i) {
        const std::uint64_t x = rng() % bound;
        pq.push(x);
        shadow.insert(x);
        ++pushed;
    }
    const auto stats = emflow::pipelines::tfp::time_forward_loop(
        pq, rule,
        [&](const emflow::pipelines::tfp::time_forward_bulk<min_queue>& bulk) {
            const auto& items = bulk.items();
            // Expected: the smallest items of the shadow, up to the limit or count.
            auto end = shadow.begin();
            std::size_t n = 0;
            const std::size_t cap = bulk.limit() ? max_bulk : items.size();
            while (end != shadow.end() && n < cap && (!bulk.limit() || *end < *bulk.limit()))
                ++end, ++n;
            REQUIRE(std::vector<std::uint64_t>(shadow.begin(), end) == items);
            // truncated: items before the limit stayed in the queue
            const bool left = bulk.limit() && end != shadow.end() && *end < *bulk.limit();
            REQUIRE(bulk.truncated() == left);
            shadow.erase(shadow.begin(), end);
            popped += items.size();
            tbb::parallel_for(std::size_t(0), items.size(), [&](std::size_t i) {
                for (std::uint64_t y : successors(items[i], bound)) {
                    bulk.push(y);
                    std::lock_guard<std::mutex> lock(m);
                    shadow.insert(y);
                    ++pushed;
                }
            });
        },
        max_bulk);
    REQUIRE(pq.empty());
    REQUIRE(shadow.empty());
    REQUIRE(pushed == popped);
    REQUIRE(stats.items == popped);
    return stats;
}

}  // namespace

TEST_CASE("time-forward loop with next_k bulks pops every item exactly once", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    for (std::size_t k : {1u, 7u, 1000u, 1u << 20}) {
        INFO("k " << k);
        // Single-item bulks are slow by design: a smaller workload for them.
        const std::size_t seeds = k == 1 ? 300 : 3000;
        const auto stats =
            run_workload(emflow::pipelines::tfp::next_k{k}, seeds, k == 1 ? 20000 : 100000);
        CHECK(stats.max_bulk <= k);
        CHECK(stats.items > seeds);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("time-forward loop with limit rules extracts exactly the items before the limit",
          "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    auto key = [](std::uint64_t x) { return x; };
    SECTION("fixed windows") {
        for (std::uint64_t width : {1u, 64u, 5000u, 1u << 30}) {
            INFO("width " << width);
            emflow::pipelines::tfp::fixed_window w(width);
            run_workload(emflow::pipelines::tfp::make_key_limit_rule(w, key, key),
                         width == 1 ? 300 : 3000, width == 1 ? 20000 : 100000);
        }
    }
    SECTION("adaptive window, also with bulks cut off at max_bulk") {
        emflow::pipelines::tfp::adaptive_window w(2000);
        const auto stats =
            run_workload(emflow::pipelines::tfp::make_key_limit_rule(w, key, key), 3000, 100000);
        // After the first few rounds the window holds bulks near the target.
        CHECK(stats.mean_bulk() >= 500);
        emflow::pipelines::tfp::adaptive_window w2(2000, 20);
        const auto cut = run_workload(emflow::pipelines::tfp::make_key_limit_rule(w2, key, key),
                                      3000, 100000, 300);
        CHECK(cut.max_bulk <= 300);
        CHECK(cut.truncated_bulks > 0);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("time-forward loop on an empty queue does nothing", "[tfp]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), small_queue());
    int calls = 0;
    const auto stats = emflow::pipelines::tfp::time_forward_loop(
        pq, emflow::pipelines::tfp::next_k{10}, [&](const auto&) { ++calls; });
    CHECK(calls == 0);
    CHECK(stats.bulks == 0);
    CHECK_THROWS_AS(emflow::pipelines::tfp::time_forward_loop(pq, emflow::pipelines::tfp::next_k{0},
                                                              [](const auto&) {}),
                    std::invalid_argument);
}

TEST_CASE("an exception in the processing function reaches the caller, queue still usable",
          "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        for (std::uint64_t i = 0; i < 100000; ++i) pq.push(i * 7 % 100000);
        int round = 0;
        auto process = [&](const emflow::pipelines::tfp::time_forward_bulk<min_queue>& bulk) {
            const bool fail = ++round == 5;
            tbb::parallel_for(std::size_t(0), bulk.items().size(), [&](std::size_t i) {
                if (fail && i == bulk.items().size() / 2) throw std::runtime_error("node failed");
                bulk.push(bulk.items()[i] + 100000);  // one successor, processed later
            });
        };
        REQUIRE_THROWS_WITH(emflow::pipelines::tfp::time_forward_loop(
                                pq, emflow::pipelines::tfp::next_k{10000}, process),
                            "node failed");
        // The phase was closed: the queue accepts pushes and pops again and is consistent.
        REQUIRE(pq.size() >= 50000);
        pq.push(3);
        std::vector<std::uint64_t> rest;
        pq.bulk_pop(rest, SIZE_MAX);
        REQUIRE(std::is_sorted(rest.begin(), rest.end()));
        REQUIRE(pq.empty());
    }
    CHECK(dir.entries() == 0);
}

using emflow_test::throwing_greater;

TEST_CASE("an exception in the comparator reaches the caller of the loop", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        auto countdown = std::make_shared<std::atomic<std::int64_t>>(0);
        emflow::parallel_priority_queue<std::uint64_t, throwing_greater> pq(
            throwing_greater{countdown}, small_queue());
        for (std::uint64_t i = 0; i < 200000; ++i) pq.push(i * 13 % 200000);
        countdown->store(100000);  // somewhere inside the loop
        auto process = [&](const auto& bulk) {
            tbb::parallel_for(std::size_t(0), bulk.items().size(), [&](std::size_t i) {
                if (bulk.items()[i] < 400000) bulk.push(bulk.items()[i] + 200000);
            });
        };
        REQUIRE_THROWS_WITH(emflow::pipelines::tfp::time_forward_loop(
                                pq, emflow::pipelines::tfp::next_k{5000}, process),
                            "comparator failed");
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a limit rule that leaves the top item out is reported", "[tfp]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), small_queue());
    pq.push(5);
    struct stuck_rule {
        std::uint64_t next_limit(std::uint64_t top) const { return top; }
        void observe(std::size_t, bool) {}
    };
    CHECK_THROWS_AS(emflow::pipelines::tfp::time_forward_loop(pq, stuck_rule{}, [](const auto&) {}),
                    std::logic_error);
}

TEST_CASE("a limit rule's done() ends the loop before the bulk of the top item", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        for (std::uint64_t x = 0; x < 100000; ++x) pq.push(x);
        struct stop_at {
            std::uint64_t stop;
            std::uint64_t next_limit(std::uint64_t top) const { return top + 1000; }
            void observe(std::size_t, bool) {}
            bool done(std::uint64_t top) const { return top >= stop; }
        };
        std::uint64_t seen = 0, largest = 0;
        const auto stats =
            emflow::pipelines::tfp::time_forward_loop(pq, stop_at{30500}, [&](const auto& bulk) {
                seen += bulk.items().size();
                largest = std::max(largest, bulk.items().back());
            });
        // bulks of [0, 1000), ..., [30000, 31000): the one at 31000 is not extracted
        CHECK(stats.bulks == 31);
        CHECK(seen == 31000);
        CHECK(largest == 30999);
        CHECK(pq.size() == 100000 - 31000);
        CHECK(pq.top() == 31000);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("the processing function may reorder and drop the bulk's items", "[tfp]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), small_queue());
    for (std::uint64_t x = 0; x < 5000; ++x) pq.push(x);
    std::uint64_t kept = 0;
    const auto stats = emflow::pipelines::tfp::time_forward_loop(
        pq, emflow::pipelines::tfp::next_k{1000}, [&](const auto& bulk) {
            std::vector<std::uint64_t>& items = bulk.items();
            std::reverse(items.begin(), items.end());
            items.resize(items.size() / 2);  // the loop does not read them again
            kept += items.size();
            // the largest item of the first bulk, first after the reversal: one more round
            if (!items.empty() && items.front() == 999) bulk.push(items.front() + 10000);
        });
    CHECK(kept == 2500);
    CHECK(stats.bulks == 6);
    CHECK(stats.items == 5001);
    CHECK(pq.empty());
}
