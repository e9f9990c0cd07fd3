// SPDX-License-Identifier: BSL-1.0
// The queue writes each item to disk once when a bulk several times its budget goes to disk and
// comes back: the external arrays it makes are few enough for read buffers within the budget, so
// no level merge of external arrays (a second pass over everything on disk) is needed.
// (Regression: while the bulk heaps had grown, merges were forced against half of what they
// left, which doubled the bytes written at 4 GiB with 1 GiB.)
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <omp.h>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "test_env.hpp"

using pq_t = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

TEST_CASE("a bulk of four times the budget is written once and comes back in order", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    for (unsigned threads : {1u, 2u}) {
        emflow::ppq_options cfg;
        cfg.memory_bytes = 32u << 20;
        cfg.num_threads = threads;
        const std::uint64_t n = 4 * cfg.memory_bytes / sizeof(std::uint64_t);
        pq_t pq(std::greater<std::uint64_t>(), cfg);
        std::uint64_t sum_in = 0;
        pq.bulk_push_begin(n);
#pragma omp parallel num_threads(threads) reduction(+ : sum_in)
        {
            std::mt19937_64 rng(seed + unsigned(omp_get_thread_num()));
#pragma omp for
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t x = rng();
                pq.bulk_push(x);
                sum_in += x;
            }
        }
        pq.bulk_push_end();
        INFO("threads " << threads);
        const auto s = pq.stats();
        CHECK(s.items_on_disk > n / 2);
        CHECK(s.external_merges == 0);
        const std::uint64_t once = n * sizeof(std::uint64_t) / 20 * 21;  // + partial blocks
        CHECK(s.bytes_written <= once);

        std::vector<std::uint64_t> out;
        std::uint64_t sum_out = 0, count = 0, last = 0;
        bool ordered = true;
        while (!pq.empty()) {
            pq.bulk_pop(out, 1 << 20);
            for (std::uint64_t x : out) {
                ordered = ordered && x >= last;
                last = x;
                sum_out += x;
            }
            count += out.size();
        }
        CHECK(ordered);
        CHECK(count == n);
        CHECK(sum_out == sum_in);
        CHECK(pq.stats().bytes_read <= once);
    }
    CHECK(dir.entries() == 0);
}
