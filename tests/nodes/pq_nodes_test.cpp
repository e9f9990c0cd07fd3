// SPDX-License-Identifier: BSL-1.0
// Tests of the PPQ's flow-graph nodes: the push side (emflow/nodes/pq_push.hpp) from 1..4
// concurrent producer pipelines and from push edges, the pull side (emflow/nodes/pq_source.hpp)
// against a sorted reference with every batch size and with limits, and error paths.
#include <emflow/flow.hpp>
#include <emflow/nodes/pq_push.hpp>
#include <emflow/nodes/pq_source.hpp>
#include <emflow/ppq.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "node_test_util.hpp"
#include "test_env.hpp"
#include "throwing_greater.hpp"

namespace {

using min_queue = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

//! A budget small enough that the inputs below spill to disk; a heap per arena thread.
emflow::ppq_options small_queue() {
    emflow::ppq_options cfg;
    cfg.memory_bytes = 8u << 20;
    cfg.num_threads = unsigned(std::max(2, emflow::flow_arena().max_concurrency()));
    return cfg;
}

//! Producer p's i-th item: distinct across producers, in no particular order.
std::uint64_t item(unsigned p, std::uint64_t i) {
    return ((i * 0x9E3779B97F4A7C15ull) >> 8) * 4 + p;
}

//! A pipeline of n items of producer p (generate | transform), CPU-light.
auto producer(unsigned p, std::uint64_t n) {
    return emflow::generate(n, [p, i = std::uint64_t(0)]() mutable { return i++; }) |
           emflow::transform([p](std::uint64_t i) { return item(p, i); });
}

std::vector<std::uint64_t> expected_items(unsigned producers, std::uint64_t n) {
    std::vector<std::uint64_t> v;
    for (unsigned p = 0; p < producers; ++p)
        for (std::uint64_t i = 0; i < n + p * 1000; ++i) v.push_back(item(p, i));
    std::sort(v.begin(), v.end());
    return v;
}

//! Pushes 300000 random items below 10^6 into pq; returns them sorted.
std::vector<std::uint64_t> push_random(min_queue& pq, std::mt19937_64& rng) {
    std::vector<std::uint64_t> ref(300000);
    for (auto& x : ref) {
        x = rng() % 1000000;
        pq.push(x);
    }
    std::sort(ref.begin(), ref.end());
    return ref;
}

std::vector<std::uint64_t> pop_all(min_queue& pq) {
    std::vector<std::uint64_t> out;
    pq.bulk_pop(out, SIZE_MAX);
    return out;
}

}  // namespace

TEST_CASE("push side: 1..4 concurrent producer pipelines, nothing lost or duplicated",
          "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        const std::uint64_t n = 150000;  // per producer: several flushes to disk in all
        for (unsigned producers = 1; producers <= 4; ++producers) {
            INFO(producers << " producers");
            min_queue pq(std::greater<std::uint64_t>(), small_queue());
            emflow::bulk_push_options opt;
            switch (producers) {
                case 1:
                    emflow::bulk_push_from(pq, n, opt, producer(0, n));
                    break;
                case 2:
                    emflow::bulk_push_from(pq, 2 * n, opt, producer(0, n), producer(1, n + 1000));
                    break;
                case 3:
                    emflow::bulk_push_from(pq, 3 * n, opt, producer(0, n), producer(1, n + 1000),
                                           producer(2, n + 2000));
                    break;
                default:
                    emflow::bulk_push_from(pq, 4 * n, opt, producer(0, n), producer(1, n + 1000),
                                           producer(2, n + 2000), producer(3, n + 3000));
            }
            CHECK(pq.stats().background_sorts > 0);  // full heaps went to background tasks
            REQUIRE(pop_all(pq) == expected_items(producers, n));
        }
        // Empty producers and a queue that already holds items.
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        pq.push(7);
        emflow::bulk_push_from(pq, 0, producer(0, 0), producer(1, 0));
        REQUIRE(pop_all(pq) == std::vector<std::uint64_t>{7});
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("push side: several push edges share one bulk phase", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        const std::uint64_t n = 100000;
        {
            emflow::bulk_push_session<min_queue> session(pq, 2 * n, 2);
            auto s0 = session.sink();
            auto s1 = session.sink();
            std::thread other([&] { emflow::materialize(producer(1, n + 1000), s1); });
            emflow::materialize(producer(0, n), s0);
            other.join();
            REQUIRE(session.finished());
        }
        REQUIRE(pop_all(pq) == expected_items(2, n));
        // A session whose graph failed closes the phase when it goes away.
        {
            emflow::bulk_push_session<min_queue> session(pq, 10, 1);
            auto sink = session.sink();
            auto failing = emflow::generate(5000, [i = 0]() mutable -> std::uint64_t {
                if (++i == 3000) throw std::runtime_error("producer failed");
                return std::uint64_t(i);
            });
            REQUIRE_THROWS_WITH(emflow::materialize(failing, sink), "producer failed");
        }
        pq.push(1);  // the phase is closed: plain pushes work again
        REQUIRE(pq.size() >= 1);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("pull side emits pop order with every batch size", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    {
        for (std::size_t batch : {1u, 2u, 3u, 7u, 64u, 1000u, 4096u, 65536u, 1u << 22}) {
            const std::size_t n = batch < 64 ? 3000 : 200000;
            INFO("batch " << batch << " items " << n);
            min_queue pq(std::greater<std::uint64_t>(), small_queue());
            std::vector<std::uint64_t> ref(n);
            for (auto& x : ref) {
                x = rng() % (n / 2 + 1);  // duplicates too
                pq.push(x);
            }
            std::sort(ref.begin(), ref.end());
            auto src = emflow::pq_source(pq, batch);
            REQUIRE(emflow_test::drain_mixed(src, rng, 3000) == ref);
            REQUIRE(pq.empty());
            // Downstream nodes read whole batches: materialize through a transform.
            for (std::uint64_t x : ref) pq.push(x);
            std::vector<std::uint64_t> doubled;
            emflow::materialize(emflow::pq_source(pq, batch) |
                                    emflow::transform([](std::uint64_t x) { return 2 * x; }),
                                std::back_inserter(doubled));
            REQUIRE(doubled.size() == n);
            for (std::size_t i = 0; i < n; ++i) REQUIRE(doubled[i] == 2 * ref[i]);
        }
        min_queue empty(std::greater<std::uint64_t>(), small_queue());
        std::vector<std::uint64_t> none;
        emflow::materialize(emflow::pq_source(empty), std::back_inserter(none));
        REQUIRE(none.empty());
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("pull side with a limit emits exactly the items before it", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        const std::vector<std::uint64_t> ref = push_random(pq, rng);
        std::size_t done = 0;
        for (std::uint64_t limit : {0u, 1u, 5000u, 5000u, 400000u, 999999u, 1000000u}) {
            for (std::size_t batch : {1u, 777u, 1u << 20}) {
                if (batch == 1 && limit > 5000) continue;  // keep single-item refills short
                INFO("limit " << limit << " batch " << batch);
                auto src = emflow::pq_source_until(pq, limit, batch);
                const auto got = emflow_test::drain_mixed(src, rng, 3000);
                const std::size_t end =
                    std::lower_bound(ref.begin(), ref.end(), limit) - ref.begin();
                REQUIRE(std::vector<std::uint64_t>(ref.begin() + done, ref.begin() + end) == got);
                done = end;
                REQUIRE(pq.size() == ref.size() - done);
            }
        }
        REQUIRE(pq.empty());
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("pull side with a count pops the top k and leaves the rest in the queue", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        const std::vector<std::uint64_t> ref = push_random(pq, rng);
        std::size_t done = 0;
        for (std::uint64_t k : {0u, 1u, 10u, 4095u, 4097u, 100000u}) {
            for (std::size_t batch : {1u, 777u, 1u << 20}) {
                if (batch == 1 && k > 5000) continue;  // keep single-item refills short
                INFO("k " << k << " batch " << batch);
                std::vector<std::uint64_t> top;
                emflow::materialize(emflow::pq_source_first(pq, k, batch), std::back_inserter(top));
                REQUIRE(std::vector<std::uint64_t>(ref.begin() + std::ptrdiff_t(done),
                                                   ref.begin() + std::ptrdiff_t(done + k)) == top);
                done += k;
                REQUIRE(pq.size() == ref.size() - done);
            }
        }
        auto src = emflow::pq_source_first(pq, ref.size());  // more than it holds: all of it
        REQUIRE(emflow_test::drain_mixed(src, rng, 3000) ==
                std::vector<std::uint64_t>(ref.begin() + std::ptrdiff_t(done), ref.end()));
        REQUIRE(pq.empty());
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("pull side: a graph's budget counts the queue's whole budget, and says so",
          "[pq_nodes][errors]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), small_queue());
    for (std::uint64_t i = 0; i < 1000; ++i) pq.push(i);
    std::vector<std::uint64_t> out;
    emflow::run_options opt;
    opt.memory_bytes = small_queue().memory_bytes;  // the queue's alone: too small
    try {
        emflow::materialize(emflow::pq_source(pq), std::back_inserter(out), opt);
        FAIL("no config_error");
    } catch (const emflow::config_error& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("priority queue's whole budget (ppq_options::memory_bytes) 8.0 MiB") !=
              std::string::npos);
    }
    CHECK(pq.size() == 1000);
    opt.memory_bytes = emflow::least_memory(emflow::pq_source(pq), std::back_inserter(out));
    CHECK(opt.memory_bytes > small_queue().memory_bytes);
    emflow::materialize(emflow::pq_source(pq), std::back_inserter(out), opt);
    CHECK(out.size() == 1000);
}

TEST_CASE("push side: an exception in a producer reaches the caller, queue usable", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        min_queue pq(std::greater<std::uint64_t>(), small_queue());
        auto failing = emflow::generate(300000, [i = std::uint64_t(0)]() mutable {
            if (++i == 200000) throw std::runtime_error("producer failed");
            return item(2, i);  // distinct from producer 1's items and from the 3 pushed below
        });
        REQUIRE_THROWS_WITH(emflow::bulk_push_from(pq, 600000, producer(1, 300000), failing),
                            "producer failed");
        // The bulk phase was closed: what got in is there, sorted, without duplicates.
        REQUIRE(pq.size() <= 600000);
        pq.push(3);
        const auto rest = pop_all(pq);
        REQUIRE(std::is_sorted(rest.begin(), rest.end()));
        REQUIRE(std::adjacent_find(rest.begin(), rest.end()) == rest.end());
        for (std::uint64_t x : rest) REQUIRE(x % 4 != 0);  // only items of producers 1, 2 and 3
    }
    CHECK(dir.entries() == 0);
}

using emflow_test::throwing_greater;

TEST_CASE("push and pull side: an exception in the comparator reaches the caller", "[pq_nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        using queue = emflow::parallel_priority_queue<std::uint64_t, throwing_greater>;
        // Repeated: the other pusher must rethrow the failed flush's error, whichever task
        // reports first (a race that showed once in 150 runs of one round).
        for (int round = 0; round < 20; ++round) {
            auto countdown = std::make_shared<std::atomic<std::int64_t>>(500000);
            queue pq(throwing_greater{countdown}, small_queue());
            REQUIRE_THROWS_WITH(
                emflow::bulk_push_from(pq, 800000, producer(0, 400000), producer(1, 400000)),
                "comparator failed");
        }
        auto countdown2 = std::make_shared<std::atomic<std::int64_t>>(0);
        queue pq2(throwing_greater{countdown2}, small_queue());
        for (std::uint64_t i = 0; i < 200000; ++i) pq2.push(i * 7919 % 200000);
        countdown2->store(100000);
        std::vector<std::uint64_t> out;
        REQUIRE_THROWS_WITH(
            emflow::materialize(emflow::pq_source(pq2, 1000), std::back_inserter(out)),
            "comparator failed");
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("push side needs an insertion heap per arena thread", "[pq_nodes]") {
    emflow_test::configure_test_disks();
    if (emflow::flow_arena().max_concurrency() < 2) return;
    emflow::ppq_options cfg = small_queue();
    cfg.num_threads = 1;
    min_queue pq(std::greater<std::uint64_t>(), cfg);
    CHECK_THROWS_AS(emflow::bulk_push_from(pq, 10, producer(0, 10)), std::invalid_argument);
    CHECK_THROWS_AS(emflow::bulk_push_session<min_queue>(pq, 10, 1), std::invalid_argument);
    CHECK(pq.empty());
}
