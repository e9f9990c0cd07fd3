// SPDX-License-Identifier: BSL-1.0
// tests/ppq/plain_threads_test.cpp: bulk_push without a thread id from plain std::threads (ppq.hpp,
// "Threads"): each gets an insertion heap of its own for the bulk phase; more such threads than
// heaps, or an explicit id naming a heap a plain thread holds, is a std::logic_error.
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ppq_reference.hpp"
#include "test_env.hpp"

namespace {

using min_queue = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

//! Pushes items with no thread id through both overloads: single items and random batches.
void push_without_ids(min_queue& pq, const std::vector<std::uint64_t>& items, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < items.size();) {
        if (rng() % 2 == 0) {
            pq.bulk_push(items[i++]);
            continue;
        }
        const std::size_t n = std::min<std::size_t>(items.size() - i, rng() % 3000);
        pq.bulk_push(items.data() + i, n);
        i += n;
    }
}

//! Spins until flag reaches at least n (the threads of a test meet there).
void wait_for(const std::atomic<int>& flag, int n) {
    while (flag.load() < n) std::this_thread::yield();
}

}  // namespace

TEST_CASE("bulk_push without ids from 4 std::threads in one bulk phase loses nothing", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    {
        min_queue pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(4, 4 << 20));
        std::vector<std::uint64_t> all;
        for (int phase = 0; phase < 2; ++phase) {  // claims end with the phase
            INFO("bulk phase " << phase);
            std::vector<std::vector<std::uint64_t>> input(4);
            for (auto& v : input) {
                v.resize(150000);
                for (auto& x : v) x = rng() % 1000000;
                all.insert(all.end(), v.begin(), v.end());
            }
            pq.bulk_push_begin(1000);
            std::vector<std::thread> pushers;
            for (unsigned t = 0; t < 4; ++t)
                pushers.emplace_back([&, t] { push_without_ids(pq, input[t], seed + t); });
            for (auto& th : pushers) th.join();
            pq.bulk_push_end();
            REQUIRE(pq.size() == all.size());
        }
        std::sort(all.begin(), all.end());
        std::vector<std::uint64_t> out;
        pq.bulk_pop(out, SIZE_MAX);
        REQUIRE(out == all);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("more plain pushing threads than insertion heaps is a logic_error", "[ppq]") {
    emflow_test::configure_test_disks();
    min_queue pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
    pq.bulk_push_begin(1000);
    std::atomic<int> holding{0}, release{0};
    std::vector<std::thread> holders;
    for (unsigned t = 0; t < 2; ++t)
        holders.emplace_back([&, t] {
            pq.bulk_push(std::uint64_t(t));  // claims a heap
            ++holding;
            wait_for(release, 1);
        });
    wait_for(holding, 2);
    bool refused = false;
    std::thread third([&] {
        try {
            pq.bulk_push(std::uint64_t(7));
        } catch (const std::logic_error&) {
            refused = true;
        }
    });
    third.join();
    CHECK(refused);
    CHECK_THROWS_AS(pq.bulk_push(std::uint64_t(8), 0), std::logic_error);  // heap 0 is taken
    release = 1;
    for (auto& th : holders) th.join();
    pq.bulk_push_end();
    REQUIRE(pq.size() == 2);   // the refused pushes left the queue unchanged
    pq.bulk_push_begin(1000);  // a new phase: every heap is free again
    std::thread([&] { pq.bulk_push(std::uint64_t(9)); }).join();
    pq.bulk_push(std::uint64_t(10));
    pq.bulk_push_end();
    std::vector<std::uint64_t> out;
    pq.bulk_pop(out, SIZE_MAX);
    CHECK(out == std::vector<std::uint64_t>{0, 1, 9, 10});
}

TEST_CASE("plain threads pushing into two queues alternately keep their heaps", "[ppq]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    min_queue a(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
    min_queue b(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
    std::vector<std::uint64_t> items(100000);
    for (auto& x : items) x = rng() % 100000;
    a.bulk_push_begin(1000);
    b.bulk_push_begin(1000);
    std::vector<std::thread> pushers;
    for (unsigned t = 0; t < 2; ++t)
        pushers.emplace_back([&, t] {
            for (std::size_t i = t; i < items.size(); i += 2) (i % 3 ? a : b).bulk_push(items[i]);
        });
    for (auto& th : pushers) th.join();
    a.bulk_push_end();
    b.bulk_push_end();
    std::vector<std::uint64_t> want_a, want_b, out;
    for (std::size_t i = 0; i < items.size(); ++i) (i % 3 ? want_a : want_b).push_back(items[i]);
    std::sort(want_a.begin(), want_a.end());
    std::sort(want_b.begin(), want_b.end());
    a.bulk_pop(out, SIZE_MAX);
    CHECK(out == want_a);
    b.bulk_pop(out, SIZE_MAX);
    CHECK(out == want_b);
}
