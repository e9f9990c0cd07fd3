// SPDX-License-Identifier: BSL-1.0
// Peak resident memory of a PPQ run stays within memory_bytes plus a small fixed allowance
// (getrusage; the items are four times the budget, so the queue works on disk).
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <sys/resource.h>

#include <random>

#include "test_env.hpp"

namespace {

std::size_t peak_rss_bytes() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return std::size_t(ru.ru_maxrss) * 1024;
}

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    return x ^ (x >> 27);
}

#ifdef __SANITIZE_ADDRESS__
constexpr bool sanitized = true;  // shadow memory and quarantine make RSS meaningless
#else
constexpr bool sanitized = false;
#endif

}  // namespace

TEST_CASE("peak RSS stays within memory_bytes plus 16 MiB", "[ppq][stress]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    const std::size_t budget = 64 << 20;
    const std::size_t allowance = 16 << 20;  // libraries, thread stacks, the test's out vector
    const std::size_t before = peak_rss_bytes();
    std::uint64_t sum_in = 0, sum_out = 0, count = 0;
    {
        emflow::ppq_options cfg;
        cfg.memory_bytes = budget;
        cfg.num_threads = 2;
        emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>> pq(
            std::greater<std::uint64_t>(), cfg);
        const std::uint64_t n = (sanitized ? 1 : 4) * budget / 8;
        const std::uint64_t bulk = 1 << 20;
        // bulk pushes from two threads, then single pushes, interleaved with pops
        for (std::uint64_t done = 0; done < n; done += bulk) {
            pq.bulk_push_begin(bulk);
#pragma omp parallel for num_threads(2) reduction(+ : sum_in)
            for (std::uint64_t i = done; i < done + bulk; ++i) {
                const std::uint64_t x = mix(seed + i) >> 8;
                pq.bulk_push(x);
                sum_in += x;
            }
            pq.bulk_push_end();
            for (std::uint64_t i = 0; i < bulk / 8; ++i) {
                const std::uint64_t x = mix(seed ^ (done + i)) >> 8;
                pq.push(x);
                sum_in += x;
            }
            for (int i = 0; i < 10000; ++i) {
                sum_out += pq.top();
                pq.pop();
                ++count;
            }
        }
        std::vector<std::uint64_t> out;
        std::uint64_t last = 0;
        bool ordered = true;
        while (!pq.empty()) {
            pq.bulk_pop(out, 1 << 18);
            for (auto x : out) {
                ordered = ordered && x >= last;
                last = x;
                sum_out += x;
                ++count;
            }
        }
        CHECK(ordered);
        CHECK(count == n + n / 8);
        CHECK(sum_out == sum_in);
        CHECK(pq.stats().flushes > 0);
        CHECK(pq.stats().peak_memory_bytes <= budget);
    }
    const std::size_t peak = peak_rss_bytes();
    INFO("peak RSS " << peak << " bytes, before the queue " << before << " bytes");
    if (sanitized)
        WARN("sanitizer build: peak RSS not checked");
    else
        CHECK(peak <= before + budget + allowance);
    CHECK(dir.entries() == 0);
}
