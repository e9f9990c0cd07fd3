// SPDX-License-Identifier: BSL-1.0
// The queue's own RAM accounting stays within memory_bytes: stats().peak_memory_bytes (the
// highest sum of insertion heaps, runs being sorted, internal arrays, read, write, extract and
// limit buffers, sampled whenever one of them grows) never exceeds the budget, over workloads
// that go to disk through every interface: large and small bulk pushes from several OpenMP
// threads and oneTBB workers, single pushes, pops, bulk_pop, bulk_pop_limit and limit phases
// with limit_push.
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <omp.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "test_env.hpp"

namespace {

using pq_t = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

struct tally {
    std::uint64_t in = 0, out = 0, sum_in = 0, sum_out = 0, last = 0;
    bool ordered = true;  // a min-queue: popped keys never decrease
    void popped(std::uint64_t x) {
        ordered = ordered && x >= last;
        last = x;
        ++out;
        sum_out += x;
    }
};

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    return x ^ (x >> 27);
}

enum class pushers { openmp, onetbb };

//! A bulk phase of n keys >= floor, from `threads` OpenMP threads or oneTBB workers (whose
//! full heaps go to background tasks).
void bulk_push(pq_t& pq, tally& t, std::uint64_t n, std::uint64_t floor, std::uint64_t seed,
               unsigned threads, bool ascending, pushers how) {
    auto key = [&](std::uint64_t i) { return floor + (ascending ? i : mix(seed + i) >> 24); };
    pq.bulk_push_begin(n);
    std::uint64_t sum = 0;
    if (how == pushers::openmp) {
#pragma omp parallel for num_threads(threads) reduction(+ : sum)
        for (std::uint64_t i = 0; i < n; ++i) {
            pq.bulk_push(key(i));
            sum += key(i);
        }
    } else {
        std::atomic<std::uint64_t> total{0};
        tbb::task_arena arena{int(threads)};
        arena.execute([&] {
            tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, 4096), [&](const auto& r) {
                std::uint64_t s = 0;
                for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
                    pq.bulk_push(key(i));
                    s += key(i);
                }
                total += s;
            });
        });
        sum = total;
    }
    pq.bulk_push_end();
    t.in += n;
    t.sum_in += sum;
}

void check_budget(const pq_t& pq, std::size_t budget, const char* after) {
    INFO("after " << after);
    REQUIRE(pq.stats().peak_memory_bytes <= budget);
}

void run_workload(const emflow::ppq_options& cfg, std::uint64_t seed) {
    const std::size_t budget = cfg.memory_bytes;
    const std::uint64_t n = 3 * budget / 8;  // a bulk of three times the budget
    std::mt19937_64 rng(seed);
    pq_t pq(std::greater<std::uint64_t>(), cfg);
    tally t;
    const unsigned p = cfg.num_threads;

    bulk_push(pq, t, n, 0, seed, p, false, pushers::openmp);
    check_budget(pq, budget, "a large random bulk push");
    REQUIRE(pq.stats().items_on_disk > 0);

    std::vector<std::uint64_t> out;
    pq.bulk_pop(out, n / 4);
    for (auto x : out) t.popped(x);
    check_budget(pq, budget, "bulk_pop");

    for (int i = 0; i < 20000; ++i) {  // single pushes (above everything popped) and pops
        const std::uint64_t x = t.last + rng() % (std::uint64_t(1) << 36);
        pq.push(x);
        ++t.in;
        t.sum_in += x;
        if (i % 3 == 0) {
            t.popped(pq.top());
            pq.pop();
        }
    }
    check_budget(pq, budget, "single pushes and pops");

    // bulks from oneTBB workers, each followed by a bulk_pop
    for (int round = 0; round < 6; ++round) {
        bulk_push(pq, t, round == 0 ? n : n / 16, t.last, seed + 1000 * round, p, round % 2 == 1,
                  pushers::onetbb);
        pq.bulk_pop(out, n / 20);
        for (auto x : out) t.popped(x);
    }
    check_budget(pq, budget, "bulk pushes from oneTBB workers and bulk pops");

    bool done = false;
    const std::uint64_t limit = t.last + (std::uint64_t(1) << 38);
    while (!done) {
        done = pq.bulk_pop_limit(out, limit, n / 10);
        for (auto x : out) t.popped(x);
    }
    check_budget(pq, budget, "bulk_pop_limit");

    while (!pq.empty()) {  // limit phases that push some items back behind the limit
        const std::uint64_t L = pq.top() + (std::uint64_t(1) << 37);
        pq.limit_begin(L, 1 << 14);
        int pushed_back = 0;
        while (!pq.empty() && pq.limit_top() < L) {
            const std::uint64_t x = pq.limit_top();
            pq.limit_pop();
            t.popped(x);
            if (x % 64 == 0 && pushed_back < 2000) {
                pq.limit_push(L + x % 1000, unsigned(x % p));
                ++t.in;
                t.sum_in += L + x % 1000;
                ++pushed_back;
            }
        }
        pq.limit_end();
    }
    check_budget(pq, budget, "limit phases");
    REQUIRE(t.ordered);
    REQUIRE(t.out == t.in);
    REQUIRE(t.sum_out == t.sum_in);
    REQUIRE(pq.stats().flushes > 0);
}

}  // namespace

TEST_CASE("peak_memory_bytes stays within memory_bytes (default settings, 1-4 threads)", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    for (unsigned threads : {1u, 2u, 4u}) {
        for (std::size_t mib : {4u, 8u}) {
            INFO("threads " << threads << ", " << mib << " MiB");
            emflow::ppq_options cfg;
            cfg.memory_bytes = mib << 20;
            cfg.num_threads = threads;
            run_workload(cfg, seed);
        }
    }
    REQUIRE(dir.entries() == 0);
}

TEST_CASE("peak_memory_bytes stays within memory_bytes (small blocks: many external arrays)",
          "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    for (unsigned threads : {1u, 3u}) {
        for (std::size_t per_level : {4u, 64u}) {
            INFO("threads " << threads << ", " << per_level << " arrays per level");
            emflow::ppq_options cfg;
            cfg.memory_bytes = 4 << 20;
            cfg.block_size = 4096;
            cfg.num_threads = threads;
            cfg.max_arrays_per_level = unsigned(per_level);
            run_workload(cfg, seed);
        }
    }
    REQUIRE(dir.entries() == 0);
}
