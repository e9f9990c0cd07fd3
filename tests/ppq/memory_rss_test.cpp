// SPDX-License-Identifier: BSL-1.0
// The one-budget promise for the bare queue, as the kernel counts it: peak RSS <= memory_bytes
// + 64 MiB in the shapes of the paper's four experiments (push random or ascending keys, pop
// them all; fill ascending, then rewrite in random or fixed bulks), with 4x the budget pushed.
// glibc's dynamic mmap threshold took the rewrites 80-90 MiB over the budget (emflow/detail/
// allocator_tuning.hpp); EMFLOW_MALLOC_TUNING=off shows it again. Each test case runs in a
// process of its own (ctest), its peak reset before the queue is made.
#include <catch2/catch.hpp>

#include <emflow/ppq.hpp>
#include <emflow/process_memory.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "rss_check.hpp"
#include "test_env.hpp"

namespace {

using u64 = std::uint64_t;
using pq_t = emflow::parallel_priority_queue<u64, std::greater<u64>>;

constexpr std::size_t MiB = std::size_t(1) << 20;
constexpr std::size_t budget = 64 * MiB;
constexpr u64 items = 4 * budget / sizeof(u64);
constexpr u64 max_bulk = 640000;  // the paper's largest rewrite bulk

u64 mix(u64 x) {
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    return x ^ (x >> 27);
}

//! The queue and what went through it: pushed and popped sums, pops in order.
class queue_run {
public:
    queue_run() : pq_(std::greater<u64>(), options()) {}

    //! One bulk phase of the keys key(first) .. key(first + n - 1) from every OpenMP thread.
    template <class Key>
    void push(u64 first, u64 n, Key key) {
        pq_.bulk_push_begin(n);
        u64 sum = 0;
#pragma omp parallel reduction(+ : sum)
        {
            const auto t = static_cast<unsigned>(omp_get_thread_num());
            const auto p = static_cast<unsigned>(omp_get_num_threads());
            for (u64 i = first + n * t / p; i < first + n * (t + 1) / p; ++i) {
                pq_.bulk_push(key(i), t);
                sum += key(i);
            }
        }
        pq_.bulk_push_end();
        pushed_ += sum;
    }
    //! Pops n items with bulk_pop.
    void pop(u64 n) {
        while (n > 0) {
            pq_.bulk_pop(out_, static_cast<std::size_t>(std::min(n, max_bulk)));
            REQUIRE(!out_.empty());
            for (u64 x : out_) {
                ordered_ = ordered_ && x >= last_;
                last_ = x;
                popped_ += x;
            }
            n -= out_.size();
        }
    }
    //! Checks the order and, once everything pushed was popped, the sums.
    void check(bool empty) const {
        CHECK(ordered_);
        if (empty) {
            CHECK(pq_.size() == 0);
            CHECK(popped_ == pushed_);
        }
    }

private:
    static emflow::ppq_options options() {
        emflow::ppq_options cfg;
        cfg.memory_bytes = budget;
        return cfg;
    }

    pq_t pq_;
    std::vector<u64> out_;
    u64 pushed_ = 0, popped_ = 0, last_ = 0;
    bool ordered_ = true;
};

using emflow_test::peak_rss;

void check_peak(std::size_t before) { emflow_test::check_peak_rss(budget, before); }

//! Fills the queue with `items` ascending keys, then pops bulks of bulk() items and pushes as
//! many larger keys, until `items` were popped.
template <class Bulk>
void rewrite(Bulk bulk) {
    emflow_test::configure_test_disks();
    emflow::reset_peak_rss();
    const std::size_t before = peak_rss();
    {
        queue_run q;
        q.push(0, items, [](u64 i) { return i; });
        for (u64 popped = 0; popped < items;) {
            const u64 v = std::min<u64>(bulk(), items - popped);
            q.pop(v);
            q.push(items + popped, v, [](u64 i) { return i; });
            popped += v;
        }
        q.check(false);
    }
    check_peak(before);
}

}  // namespace

TEST_CASE("bare PPQ peak RSS <= budget + 64 MiB: push random keys, pop all", "[ppq][rss]") {
    emflow_test::configure_test_disks();
    const u64 seed = emflow_test::test_seed();
    emflow::reset_peak_rss();
    const std::size_t before = peak_rss();
    {
        queue_run q;
        q.push(0, items, [seed](u64 i) { return mix(seed + i) >> 8; });
        q.pop(items);
        q.check(true);
    }
    check_peak(before);
}

TEST_CASE("bare PPQ peak RSS <= budget + 64 MiB: push ascending keys, pop all", "[ppq][rss]") {
    emflow_test::configure_test_disks();
    emflow::reset_peak_rss();
    const std::size_t before = peak_rss();
    {
        queue_run q;
        q.push(0, items, [](u64 i) { return i; });
        q.pop(items);
        q.check(true);
    }
    check_peak(before);
}

TEST_CASE("bare PPQ peak RSS <= budget + 64 MiB: ascending fill, rewrite in random bulks",
          "[ppq][rss]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    std::uniform_int_distribution<u64> random_bulk(1, max_bulk);
    rewrite([&] { return random_bulk(rng); });
}

TEST_CASE("bare PPQ peak RSS <= budget + 64 MiB: ascending fill, rewrite in fixed bulks",
          "[ppq][rss]") {
    rewrite([] { return max_bulk; });
}
