// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/algorithm/external_array.hpp: prefetch hints withdrawn right after they were
// issued (what the prefetch prediction does when a new array changes it) neither deadlock nor lose
// data.
#include <emflow/algorithm/external_array.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "test_env.hpp"

namespace algorithm = emflow::algorithm;

TEST_CASE("hints dropped right after they were issued neither deadlock nor lose data", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        using item = std::uint64_t;
        const std::size_t block_bytes = algorithm::disk_unit;
        const std::size_t block_items = block_bytes / sizeof(item);
        algorithm::block_pool pool(block_bytes);
        algorithm::external_array<item> array(block_bytes, block_items, 0);
        for (std::size_t j = 0; j < 2; ++j) {  // two blocks holding 0, 1, 2, ...
            void* buf = pool.get();
            auto* items = static_cast<item*>(buf);
            for (std::size_t i = 0; i < block_items; ++i) items[i] = j * block_items + i;
            algorithm::disk_block b = algorithm::allocate_block(block_bytes, 0);
            auto reqs = algorithm::transfer_block(b, buf, block_bytes, true);
            algorithm::wait_transfer(reqs);
            array.add_block(std::move(b), items[0]);
            pool.put(buf);
        }
        array.set_size(2 * block_items);

        // Cancelling the reads instead (STXXL 1.4.1's request::cancel) hung this loop in about
        // half of the runs, mostly within a few hundred cycles. A hang must fail the test, not
        // stall the suite.
        std::atomic<long> cycles{0};
        std::atomic<bool> finished{false};
        std::thread watchdog([&] {
            // Counts its own naps, not wall time: a process paused by SIGSTOP (a quiet benchmark
            // run on this machine) does not look hung afterwards.
            long seen = -1;
            int idle_naps = 0;
            while (!finished.load()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                const long now = cycles.load();
                idle_naps = now == seen ? idle_naps + 1 : 0;
                seen = now;
                if (idle_naps > 400) {  // 20 s without a cycle
                    std::fprintf(stderr, "deadlock: drop_last hangs after %ld cycles\n", now);
                    std::_Exit(1);
                }
            }
        });
        for (long k = 0; k < 20000; ++k, ++cycles) {
            array.hint_next(pool);
            array.drop_last(pool);
        }
        finished = true;
        watchdog.join();

        CHECK(array.hint_end() == array.current());
        array.load_current(pool);
        REQUIRE(array.current_loaded());
        CHECK(array.head()[0] == 0);
        CHECK(array.head()[block_items - 1] == block_items - 1);
        array.release(pool);
    }
    CHECK(dir.entries() == 0);
}
