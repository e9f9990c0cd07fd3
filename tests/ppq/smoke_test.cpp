// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <queue>
#include <random>

#include "test_env.hpp"

TEST_CASE("smoke", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        emflow::ppq_options cfg;
        cfg.memory_bytes = 4 << 20;
        cfg.block_size = 4096;
        cfg.num_threads = 2;
        emflow::parallel_priority_queue<std::uint64_t> pq(std::less<std::uint64_t>(), cfg);
        std::priority_queue<std::uint64_t> ref;
        std::mt19937_64 rng(emflow_test::test_seed());
        for (int i = 0; i < 2000000; ++i) {
            std::uint64_t x = rng() % 1000000;
            pq.push(x);
            ref.push(x);
        }
        auto st = pq.stats();
        INFO("flushes " << st.flushes << " ext " << st.external_merges);
        for (int i = 0; i < 2000000; ++i) {
            REQUIRE(pq.top() == ref.top());
            pq.pop();
            ref.pop();
        }
        REQUIRE(pq.empty());
    }
    CHECK(dir.entries() == 0);
}
