// SPDX-License-Identifier: BSL-1.0
// Configuration checks, misuse exceptions, statistics, and the thread-id forms of bulk_push.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "ppq_reference.hpp"
#include "test_env.hpp"

using pq_t = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

namespace {

std::string config_error(const emflow::ppq_options& cfg) {
    try {
        pq_t pq(std::greater<std::uint64_t>(), cfg);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("bad configurations throw invalid_argument naming parameter and minimum", "[ppq]") {
    emflow_test::configure_test_disks();
    emflow::ppq_options cfg;
    cfg.num_threads = 2;
    cfg.memory_bytes = 100 << 10;
    std::string e = config_error(cfg);
    CHECK_THAT(e, Catch::Contains("memory_bytes") && Catch::Contains("at least"));

    cfg = emflow::ppq_options();
    cfg.block_size = 1000;
    e = config_error(cfg);
    CHECK_THAT(e, Catch::Contains("block_size") && Catch::Contains("4096"));

    cfg = emflow::ppq_options();
    cfg.num_threads = 4;
    cfg.block_size = 1 << 20;
    cfg.write_buffer_bytes = 2 << 20;
    e = config_error(cfg);
    CHECK_THAT(e, Catch::Contains("write_buffer_bytes") && Catch::Contains("8388608"));

    cfg = emflow::ppq_options();
    cfg.block_size = 1 << 20;
    cfg.read_buffer_bytes = 1000;
    CHECK_THAT(config_error(cfg), Catch::Contains("read_buffer_bytes"));

    cfg = emflow::ppq_options();
    cfg.block_size = 1 << 20;
    cfg.extract_buffer_bytes = 4096;
    CHECK_THAT(config_error(cfg), Catch::Contains("extract_buffer_bytes"));

    cfg = emflow::ppq_options();
    cfg.max_arrays_per_level = 1;
    CHECK_THAT(config_error(cfg), Catch::Contains("max_arrays_per_level"));

    // 24-byte items round the block to a multiple of lcm(24, 4096) = 12288
    cfg = emflow::ppq_options();
    cfg.block_size = 100000;
    emflow::parallel_priority_queue<ppq_test::item24, ppq_test::item24_less> q24(
        ppq_test::item24_less(), cfg);
    CHECK(q24.layout().block_bytes == 98304);
    CHECK(q24.layout().block_items == 4096);

    // defaults derive from memory_bytes and fit in it
    cfg = emflow::ppq_options();
    cfg.memory_bytes = 1 << 30;
    pq_t big(std::greater<std::uint64_t>(), cfg);
    CHECK(big.layout().block_bytes == 2 << 20);
    CHECK(big.layout().fixed_bytes < cfg.memory_bytes / 2);
    CHECK(big.layout().write_blocks >= 2 * big.layout().threads);
}

TEST_CASE("misuse throws logic_error and leaves the queue usable", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));
        CHECK_THROWS_AS(pq.pop(), std::logic_error);
        CHECK_THROWS_AS(pq.top(), std::logic_error);
        CHECK_THROWS_AS(pq.bulk_push(1, 0), std::logic_error);
        CHECK_THROWS_AS(pq.bulk_push_end(), std::logic_error);
        CHECK_THROWS_AS(pq.limit_end(), std::logic_error);
        CHECK_THROWS_AS(pq.limit_push(5), std::logic_error);

        pq.bulk_push_begin(10);
        CHECK_THROWS_AS(pq.push(1), std::logic_error);
        CHECK_THROWS_AS(pq.bulk_push_begin(10), std::logic_error);
        CHECK_THROWS_AS(pq.limit_begin(3, 10), std::logic_error);
        CHECK_THROWS_AS(pq.bulk_push(1, 2), std::logic_error);  // thread id >= num_threads
        std::vector<std::uint64_t> out;
        CHECK_THROWS_AS(pq.bulk_pop(out, 10), std::logic_error);
        pq.bulk_push(7, 1);
        pq.bulk_push(3, 0);
        pq.bulk_push_end();

        pq.limit_begin(5, 10);
        CHECK_THROWS_AS(pq.limit_push(4), std::invalid_argument);  // comes before the limit
        CHECK_THROWS_AS(pq.pop(), std::logic_error);
        CHECK_THROWS_AS(pq.push(9), std::logic_error);
        CHECK_THROWS_AS(pq.bulk_push_begin(1), std::logic_error);
        CHECK_THROWS_AS(pq.limit_begin(6, 1), std::logic_error);
        CHECK(pq.limit_top() == 3);
        pq.limit_push(5, 1);
        pq.limit_pop();
        CHECK(pq.limit_top() == 5);  // nothing before the limit left: the top of the queue
        pq.limit_end();

        CHECK(pq.size() == 2);
        CHECK(pq.top() == 5);
        pq.pop();
        CHECK(pq.top() == 7);
        pq.pop();
        CHECK(pq.empty());
        CHECK_THROWS_AS(pq.pop(), std::logic_error);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("bulk_push takes thread ids from OpenMP and oneTBB", "[ppq]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (unsigned threads = 1; threads <= 4; ++threads) {
        pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(threads, 4 << 20));
        std::vector<std::uint64_t> items(200000);
        for (auto& x : items) x = rng() % 1000000;
        pq.bulk_push_begin(items.size());
#pragma omp parallel for num_threads(threads)
        for (std::size_t i = 0; i < items.size() / 2; ++i) pq.bulk_push(items[i]);
        pq.bulk_push_end();
        pq.bulk_push_begin(items.size() / 2);
        tbb::task_arena arena{int(threads)};
        arena.execute([&] {
            tbb::parallel_for(items.size() / 2, items.size(),
                              [&](std::size_t i) { pq.bulk_push(items[i]); });
        });
        pq.bulk_push_end();
        std::sort(items.begin(), items.end());
        std::vector<std::uint64_t> out;
        pq.bulk_pop(out, items.size() + 5);
        CHECK(out == items);
        CHECK(pq.empty());
    }
}

TEST_CASE("bulk_pop and bulk_pop_limit grow their output to at most max_size", "[ppq]") {
    // The output is filled in several merges when the queue is on disk; a caller that budgets
    // max_size items must not get a vector doubled past it.
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));
    std::vector<std::uint64_t> items(1000000);
    for (auto& x : items) {
        x = rng() % 100000000;
        pq.push(x);
    }
    REQUIRE(pq.stats().items_on_disk > 0);
    std::sort(items.begin(), items.end());
    auto next = items.begin();
    auto expect_next = [&](const std::vector<std::uint64_t>& out) {
        REQUIRE(std::size_t(items.end() - next) >= out.size());
        CHECK(std::equal(out.begin(), out.end(), next));
        next += std::ptrdiff_t(out.size());
    };

    std::vector<std::uint64_t> out;
    pq.bulk_pop(out, 300001);
    CHECK(out.size() == 300001);
    CHECK(out.capacity() <= 300001);
    expect_next(out);

    std::vector<std::uint64_t> limited;
    const std::uint64_t limit = items[700000];  // more than max_size items come before it
    CHECK_FALSE(pq.bulk_pop_limit(limited, limit, 250003));
    CHECK(limited.size() == 250003);
    CHECK(limited.capacity() <= 250003);
    expect_next(limited);

    std::vector<std::uint64_t> small;  // a bulk below 1024 items is popped one by one
    pq.bulk_pop(small, 1000);
    CHECK(small.size() == 1000);
    CHECK(small.capacity() <= 1000);
    expect_next(small);

    while (!pq.empty()) {
        pq.bulk_pop(out, 300001);
        expect_next(out);
    }
    CHECK(next == items.end());
}

TEST_CASE("stats: external arrays, merges on every level, prefetching and cancelled hints",
          "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    auto* bm = stxxl::block_manager::get_instance();
    const auto disk_used_before = bm->get_total_bytes() - bm->get_free_bytes();
    std::mt19937_64 rng(emflow_test::test_seed());
    {
        auto cfg = ppq_test::tiny_config(2);
        pq_t pq(std::greater<std::uint64_t>(), cfg);
        std::uint64_t pushed = 0, popped = 0, sum_in = 0, sum_out = 0, last = 0;
        for (int round = 0; round < 12; ++round) {
            for (int i = 0; i < 150000; ++i) {
                std::uint64_t x = last + rng() % 1000000;
                pq.push(x);
                sum_in += x;
                ++pushed;
            }
            for (int i = 0; i < 40000; ++i) {
                std::uint64_t x = pq.top();
                REQUIRE(x >= last);
                last = x;
                sum_out += x;
                pq.pop();
                ++popped;
            }
        }
        auto s = pq.stats();
        CHECK(s.flushes > 5);
        CHECK(s.internal_merges > 0);
        CHECK(s.external_merges > 0);
        CHECK(s.external_arrays_per_level.size() >= 2);
        CHECK(s.items_on_disk > 0);
        CHECK(s.items_in_ram + s.items_on_disk == pushed - popped);
        CHECK(s.prefetch_hits > 0);
        CHECK(s.hints_cancelled > 0);
        CHECK(s.extract_refills > 0);
        CHECK(s.bytes_written >= s.items_on_disk * 8);
        CHECK(s.bytes_read > 0);
        CHECK(s.peak_memory_bytes <= cfg.memory_bytes);
        CHECK(bm->get_total_bytes() - bm->get_free_bytes() > disk_used_before);
        std::vector<std::uint64_t> out;
        while (!pq.empty()) {
            pq.bulk_pop(out, 100000);
            for (auto x : out) {
                REQUIRE(x >= last);
                last = x;
                sum_out += x;
                ++popped;
            }
        }
        CHECK(popped == pushed);
        CHECK(sum_out == sum_in);
        // consumed arrays gave their disk blocks back
        CHECK(bm->get_total_bytes() - bm->get_free_bytes() == disk_used_before);
    }
    CHECK(bm->get_total_bytes() - bm->get_free_bytes() == disk_used_before);
    CHECK(dir.entries() == 0);
}

TEST_CASE("destruction frees the disk blocks of a non-empty queue", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    auto* bm = stxxl::block_manager::get_instance();
    const auto used_before = bm->get_total_bytes() - bm->get_free_bytes();
    {
        pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));
        std::mt19937_64 rng(emflow_test::test_seed());
        for (int i = 0; i < 1000000; ++i) pq.push(rng());
        pq.pop();  // prefetch hints in flight
        CHECK(pq.stats().items_on_disk > 0);
    }
    CHECK(bm->get_total_bytes() - bm->get_free_bytes() == used_before);
    CHECK(dir.entries() == 0);
}
