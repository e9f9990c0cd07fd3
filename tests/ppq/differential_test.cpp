// SPDX-License-Identifier: BSL-1.0
// Differential tests of parallel_priority_queue against a std::multiset model: random operation
// sequences mixing push/top/pop, bulk_push (OpenMP and oneTBB, 1..4 threads), bulk_pop,
// bulk_pop_limit and limit phases, for all key patterns, several item types and comparators,
// tiny budgets with 4 KiB blocks (many external arrays and merges) and large ones.
#include "ppq_reference.hpp"
#include "test_env.hpp"

using namespace ppq_test;

namespace {

const pattern all_patterns[] = {pattern::random, pattern::ascending, pattern::descending,
                                pattern::all_equal, pattern::few_distinct};

template <class T, class Compare>
void all_patterns_run(const emflow::ppq_options& cfg, std::size_t steps, std::size_t batch,
                      int seeds_per_pattern = 2) {
    const std::uint64_t base = emflow_test::test_seed();
    for (pattern p : all_patterns)
        for (int s = 0; s < seeds_per_pattern; ++s) {
            const std::uint64_t seed = base + std::uint64_t(p) * 1000 + s;
            INFO("pattern " << name(p) << ", derived seed " << seed);
            random_run<T, Compare>(cfg, p, seed, steps, batch);
        }
}

}  // namespace

TEST_CASE("uint64 max-queue, tiny budget, all interfaces and patterns", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    all_patterns_run<std::uint64_t, std::less<std::uint64_t>>(tiny_config(2), 120, 3000);
    CHECK(dir.entries() == 0);
}

TEST_CASE("uint64 min-queue, tiny budget, 4 threads", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    all_patterns_run<std::uint64_t, std::greater<std::uint64_t>>(tiny_config(4), 120, 3000);
    CHECK(dir.entries() == 0);
}

TEST_CASE("uint64 one thread, tiny budget", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    all_patterns_run<std::uint64_t, std::greater<std::uint64_t>>(tiny_config(1), 100, 3000);
    CHECK(dir.entries() == 0);
}

TEST_CASE("24-byte items with payload, tiny budget", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    all_patterns_run<item24, item24_less>(tiny_config(3, 4 << 20, 12288), 100, 3000);
    CHECK(dir.entries() == 0);
}

TEST_CASE("custom comparator, tiny budget", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    all_patterns_run<std::uint64_t, low_bits_greater>(tiny_config(2), 100, 3000);
    CHECK(dir.entries() == 0);
}

TEST_CASE("large budget, large batches", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    emflow::ppq_options cfg;
    cfg.memory_bytes = 64 << 20;
    cfg.num_threads = 2;
    all_patterns_run<std::uint64_t, std::greater<std::uint64_t>>(cfg, 40, 100000, 1);
    CHECK(dir.entries() == 0);
}

TEST_CASE("bulk interfaces only, tiny budget, big bulks", "[ppq]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t base = emflow_test::test_seed();
    op_mix mix;
    mix.single = false;
    mix.limit = false;
    for (pattern p : all_patterns)
        random_run<std::uint64_t, std::greater<std::uint64_t>>(tiny_config(4), p, base + int(p), 60,
                                                               40000, mix);
    CHECK(dir.entries() == 0);
}
