// SPDX-License-Identifier: BSL-1.0
// A disk that fills up during external merges: stxxl::io_error reaches the caller, no deadlock,
// the queue refuses further use, and destruction frees every block (the disk is usable again).
// Both with OpenMP pushers and with plain threads, whose full heaps go to background tasks (the
// flush that fails may run in one, with the other pusher helping its merge).
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "ppq_reference.hpp"
#include "test_env.hpp"

using pq_t = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

TEST_CASE("a full disk gives stxxl::io_error and leaves nothing behind", "[ppq]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{8 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    std::mt19937_64 rng(emflow_test::test_seed());
    for (int trial = 0; trial < 2; ++trial) {
        bool io_failed = false;
        std::atomic<bool> io_error_seen{false};
        {
            pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
            try {
                for (int round = 0; round < 100; ++round) {
                    pq.bulk_push_begin(50000);
#pragma omp parallel for num_threads(2)
                    for (int i = 0; i < 50000; ++i) {
                        try {
                            pq.bulk_push(std::uint64_t(i) * 0x9E3779B97F4A7C15ull >> 24);
                        } catch (const stxxl::io_error&) {
                            io_error_seen = true;  // bulk_push_end() then reports the failure
                        } catch (const std::logic_error&) {
                        }
                    }
                    pq.bulk_push_end();
                    for (int i = 0; i < 20000; ++i) pq.push(rng());
                }
            } catch (const stxxl::io_error& e) {
                io_failed = io_error_seen = true;
                CHECK_THAT(e.what(), Catch::Contains("File too large"));
            } catch (const std::logic_error&) {
                io_failed = true;  // a bulk_push thread saw the io_error first
            }
            CHECK_THROWS_AS(pq.push(1), std::logic_error);
        }
        CHECK(io_failed);
        CHECK(io_error_seen);
        CHECK(dir.entries() == 0);
    }
    // all blocks are back: a new queue can use the whole disk again
    pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
    for (int i = 0; i < 500000; ++i) pq.push(std::uint64_t(i));  // 4 MiB: fits on the disk
    for (int i = 0; i < 500000; ++i) {
        REQUIRE(pq.top() == std::uint64_t(i));
        pq.pop();
    }
}

TEST_CASE("a full disk during background insertion reaches the pushers or bulk_push_end", "[ppq]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{8 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    std::atomic<bool> io_error_seen{false};
    bool failed = false;
    {
        pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 4 << 20));
        try {
            for (int round = 0; round < 100; ++round) {
                pq.bulk_push_begin(100000);
                std::vector<std::thread> pushers;
                for (unsigned t = 0; t < 2; ++t)
                    pushers.emplace_back([&, t] {
                        std::vector<std::uint64_t> batch(1000);
                        try {
                            for (int b = 0; b < 50; ++b) {
                                for (std::size_t i = 0; i < batch.size(); ++i)
                                    batch[i] = (round * 100000 + t * 50000 + b * 1000 + i) *
                                                   0x9E3779B97F4A7C15ull >>
                                               24;
                                pq.bulk_push(batch.data(), batch.size(), t);
                            }
                        } catch (const stxxl::io_error&) {
                            io_error_seen = true;
                        } catch (const std::logic_error&) {  // the queue failed elsewhere
                        }
                    });
                for (auto& p : pushers) p.join();
                pq.bulk_push_end();
            }
        } catch (const stxxl::io_error& e) {
            failed = io_error_seen = true;
            CHECK_THAT(e.what(), Catch::Contains("File too large"));
        } catch (const std::logic_error&) {
            failed = true;  // a pusher saw the io_error first
        }
        CHECK(failed);
        CHECK(io_error_seen);
        CHECK_THROWS_AS(pq.push(1), std::logic_error);
        CHECK(pq.stats().background_sorts > 0);  // the background path ran
    }
    CHECK(dir.entries() == 0);
}
