// SPDX-License-Identifier: BSL-1.0
// The background insertion path of bulk_push (ppq.hpp, "Overlap"): pushers outside OpenMP hand
// full insertion heaps to oneTBB tasks that sort them and add them (merging levels and flushing
// to disk) while the others go on pushing. Multiset equality with 1..4 pushers and tiny
// budgets, a comparator that throws inside a background task, and misuse of the batch overload.
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ppq_reference.hpp"
#include "test_env.hpp"
#include "throwing_greater.hpp"

namespace {

using min_queue = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

//! Pushes items through both overloads: batches of random length and single items.
template <class Queue>
void push_mixed(Queue& pq, const std::vector<std::uint64_t>& items, unsigned tid,
                std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < items.size();) {
        if (rng() % 4 == 0) {
            pq.bulk_push(items[i++], tid);
            continue;
        }
        const std::size_t n = std::min<std::size_t>(items.size() - i, rng() % 5000);
        pq.bulk_push(items.data() + i, n, tid);
        i += n;
    }
}

//! CPU work standing in for producing a batch, so that background tasks keep up with the
//! pushers (who sort their heaps themselves when too many are in flight).
void produce_slowly(std::uint64_t x) {
    volatile std::uint64_t sink = 0;
    for (int i = 0; i < 20000; ++i) x = (x ^ (x >> 31)) * 0x7FB5D329728EA185ull;
    sink = x;
    (void)sink;
}

}  // namespace

TEST_CASE("background insertion: 1..4 pushing threads, tiny budgets, nothing lost", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    for (unsigned threads = 1; threads <= 4; ++threads) {
        for (std::size_t memory : {std::size_t(3) << 20, std::size_t(4) << 20}) {
            INFO(threads << " pushing threads, budget " << memory);
            const std::size_t per_thread = 800000 / threads;
            std::vector<std::vector<std::uint64_t>> input(threads);
            std::vector<std::uint64_t> all;
            for (auto& v : input) {
                for (std::size_t i = 0; i < per_thread; ++i) v.push_back(rng() % 1000000);
                all.insert(all.end(), v.begin(), v.end());
            }
            std::sort(all.begin(), all.end());
            {
                min_queue pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(threads, memory));
                pq.push(all.front());  // items present before the bulk phase take part, too
                all.insert(all.begin(), all.front());
                pq.bulk_push_begin(1000);  // small: heaps stay small, full ones go to tasks
                std::vector<std::thread> pushers;
                for (unsigned t = 0; t < threads; ++t)
                    pushers.emplace_back([&, t] { push_mixed(pq, input[t], t, seed + t); });
                for (auto& th : pushers) th.join();
                pq.bulk_push_end();
                const auto s = pq.stats();
                CHECK(s.background_sorts > 0);
                CHECK(s.flushes > 0);  // background tasks wrote external arrays
                REQUIRE(pq.size() == all.size());
                std::vector<std::uint64_t> out;
                pq.bulk_pop(out, SIZE_MAX);
                REQUIRE(out == all);
            }
            CHECK(dir.entries() == 0);
        }
    }
}

TEST_CASE("background insertion from oneTBB tasks and a second bulk phase", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    {
        min_queue pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(4, 4 << 20));
        std::vector<std::uint64_t> all;
        for (int phase = 0; phase < 2; ++phase) {
            std::vector<std::uint64_t> items(200000);
            for (auto& x : items) x = rng() % 500000;
            all.insert(all.end(), items.begin(), items.end());
            pq.bulk_push_begin(1000);
            std::atomic<bool> outside_arena{false};  // checked here: Catch2 is not thread-safe
            tbb::parallel_for(std::size_t(0), std::size_t(64), [&](std::size_t chunk) {
                const std::size_t b = items.size() * chunk / 64;
                const std::size_t e = items.size() * (chunk + 1) / 64;
                const int tid = tbb::this_task_arena::current_thread_index();
                if (tid < 0) outside_arena = true;
                pq.bulk_push(items.data() + b, e - b, unsigned(std::max(tid, 0)) % 4);
            });
            REQUIRE_FALSE(outside_arena);
            pq.bulk_push_end();
            std::vector<std::uint64_t> out;  // pop a part between the phases
            pq.bulk_pop(out, 50000);
            std::sort(all.begin(), all.end());
            REQUIRE(std::equal(out.begin(), out.end(), all.begin()));
            all.erase(all.begin(), all.begin() + 50000);
        }
        CHECK(pq.stats().background_sorts > 0);
        std::vector<std::uint64_t> out;
        pq.bulk_pop(out, SIZE_MAX);
        REQUIRE(out == all);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a comparator throwing inside a background task reaches the caller", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    using queue = emflow::parallel_priority_queue<std::uint64_t, emflow_test::throwing_greater>;
    std::mt19937_64 rng(emflow_test::test_seed());
    int from_background = 0;
    for (int trial = 0; trial < 8; ++trial) {
        // fail in the first heap sorts or deep into level merges and flushes to disk
        auto countdown = std::make_shared<std::atomic<std::int64_t>>(0);
        const std::int64_t budget = std::int64_t(rng() % (trial < 4 ? 200000 : 8000000)) + 1;
        INFO("trial " << trial << ", comparisons before the failure " << budget);
        {
            queue pq(emflow_test::throwing_greater{countdown}, ppq_test::tiny_config(2, 3 << 20));
            std::vector<std::uint64_t> items(400000);
            for (auto& x : items) x = rng();
            pq.bulk_push_begin(1000);
            countdown->store(budget);
            std::atomic<int> reached{0};
            std::vector<std::thread> pushers;
            for (unsigned t = 0; t < 2; ++t)
                pushers.emplace_back([&, t] {
                    try {
                        for (std::size_t i = t * 1000; i < items.size(); i += 2000) {
                            produce_slowly(items[i]);
                            pq.bulk_push(items.data() + i, 1000, t);
                        }
                    } catch (const std::exception& e) {
                        // the original exception, or the queue refusing use after another
                        // pusher's own sort failed
                        if (std::string(e.what()) == "comparator failed") ++reached;
                    }
                });
            for (auto& th : pushers) th.join();
            (void)pq.stats();     // waits for the background tasks
            countdown->store(0);  // so bulk_push_end's own sorts cannot throw
            bool failed = reached > 0;
            try {
                pq.bulk_push_end();
            } catch (const std::runtime_error& e) {
                if (std::string(e.what()) == "comparator failed") {
                    ++from_background;  // only a background task's exception comes from here
                    failed = true;
                }
            } catch (const std::logic_error&) {
                failed = true;  // the failure reached a pusher in its own sort before
            }
            if (failed) {
                CHECK(reached + from_background > 0);
                CHECK_THROWS_AS(pq.push(1), std::logic_error);
                CHECK_THROWS_AS(pq.bulk_push_begin(1), std::logic_error);
                CHECK_THROWS_AS(pq.bulk_push_end(), std::logic_error);
            } else {
                CHECK(pq.size() == items.size());  // the budget outlasted the bulk phase
            }
            countdown->store(0);
        }
        CHECK(dir.entries() == 0);
    }
    INFO(from_background << " trials failed in a background task");
    {
        // Deterministic: the one full heap goes to a background task, whose first comparison
        // throws; the pusher never sorts, so only bulk_push_end can report it.
        auto countdown = std::make_shared<std::atomic<std::int64_t>>(0);
        queue pq(emflow_test::throwing_greater{countdown}, ppq_test::tiny_config(2, 3 << 20));
        std::vector<std::uint64_t> items(pq.layout().heap_items);
        for (auto& x : items) x = rng();
        pq.bulk_push_begin(1000);
        countdown->store(1);
        pq.bulk_push(items.data(), items.size(), 0);
        REQUIRE_THROWS_WITH(pq.bulk_push_end(), "comparator failed");
        CHECK_THROWS_AS(pq.bulk_push_end(), std::logic_error);
        CHECK_THROWS_AS(pq.push(1), std::logic_error);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("bulk_push of a batch: misuse throws logic_error, queue usable", "[ppq]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));
    const std::uint64_t items[3] = {5, 3, 9};
    CHECK_THROWS_AS(pq.bulk_push(items, 3, 0), std::logic_error);  // outside a bulk phase
    CHECK_THROWS_AS(pq.bulk_push(items, 3), std::logic_error);
    pq.limit_begin(1, 10);
    CHECK_THROWS_AS(pq.bulk_push(items, 3, 0), std::logic_error);  // in a limit phase
    pq.limit_end();
    pq.bulk_push_begin(3);
    CHECK_THROWS_AS(pq.bulk_push(items, 3, 2), std::logic_error);  // thread id out of range
    pq.bulk_push(items, 0, 1);                                     // empty batch
    pq.bulk_push(items, 3, 1);
    pq.bulk_push_end();
    CHECK_THROWS_AS(pq.bulk_push_end(), std::logic_error);
    REQUIRE(pq.size() == 3);
    CHECK(pq.top() == 3);
}
