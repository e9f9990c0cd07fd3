// SPDX-License-Identifier: BSL-1.0
// Failure paths: a comparator that throws (in the caller's thread, inside parallel sorts and
// merges, inside concurrent bulk pushes and push_sorted) and a disk that fills up. The exception
// reaches the caller, the queue refuses further use, and destruction frees every disk block and
// temp file.
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <algorithm>
#include <atomic>
#include <random>

#include "ppq_reference.hpp"
#include "test_env.hpp"

namespace {

std::atomic<long> comparisons_left{-1};

struct comparator_failure : std::runtime_error {
    comparator_failure() : std::runtime_error("comparator failure") {}
};

//! std::greater that throws once comparisons_left reaches 0.
struct throwing_greater {
    bool operator()(std::uint64_t a, std::uint64_t b) const {
        if (comparisons_left.fetch_sub(1, std::memory_order_relaxed) == 0)
            throw comparator_failure();
        return a > b;
    }
};

using pq_t = emflow::parallel_priority_queue<std::uint64_t, throwing_greater>;

std::uint64_t disk_in_use() {
    auto* bm = stxxl::block_manager::get_instance();
    return bm->get_total_bytes() - bm->get_free_bytes();
}

//! A workload using every interface; stops at the first exception and returns whether the
//! comparator failure reached this thread.
bool workload(pq_t& pq, std::mt19937_64& rng) {
    std::vector<std::uint64_t> out;
    try {
        for (int round = 0; round < 20; ++round) {
            for (int i = 0; i < 20000; ++i) pq.push(rng() % 100000000);
            std::atomic<bool> failed{false};
            pq.bulk_push_begin(100000);
#pragma omp parallel for num_threads(2)
            for (int i = 0; i < 100000; ++i) {
                try {
                    const std::uint64_t x =
                        (std::uint64_t(i) * 0x9E3779B97F4A7C15ull >> 20) + round;
                    if (!failed) pq.bulk_push(x, unsigned(omp_get_thread_num()));
                } catch (const comparator_failure&) {
                    failed = true;
                } catch (const std::logic_error&) {
                    failed = true;  // the other thread's flush failed first
                }
            }
            if (failed) return true;
            pq.bulk_push_end();
            std::vector<std::uint64_t> run(30000);  // checked and merged by the comparator
            for (auto& x : run) x = rng() % 100000000;
            std::sort(run.begin(), run.end());
            pq.push_sorted(std::move(run));
            pq.bulk_pop(out, 30000);
            for (int i = 0; i < 5000; ++i) pq.pop();
            pq.bulk_pop_limit(out, 50000000, 20000);
        }
    } catch (const comparator_failure&) {
        return true;
    }
    return false;
}

}  // namespace

TEST_CASE("a throwing comparator reaches the caller from every stage", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t used_before = disk_in_use();
    std::mt19937_64 rng(emflow_test::test_seed());
    int reached = 0;
    for (int trial = 0; trial < 10; ++trial) {
        // throw somewhere between the first pushes and deep into the run
        const long budget = long(rng() % (trial < 5 ? 2000000 : 40000000));
        INFO("trial " << trial << ", comparisons before the failure " << budget);
        {
            comparisons_left = budget;
            pq_t pq(throwing_greater(), ppq_test::tiny_config(2, 3 << 20));
            std::mt19937_64 wrng(rng());
            if (workload(pq, wrng)) {
                ++reached;
                CHECK_THROWS_AS(pq.push(1), std::logic_error);
                CHECK_THROWS_AS(pq.bulk_push_begin(1), std::logic_error);
                std::vector<std::uint64_t> out;
                CHECK_THROWS_AS(pq.bulk_pop(out, 1), std::logic_error);
            }
            comparisons_left = -1;
        }
        CHECK(disk_in_use() == used_before);
        CHECK(dir.entries() == 0);
    }
    CHECK(reached >= 5);
}
