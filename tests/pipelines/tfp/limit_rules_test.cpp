// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/pipelines/tfp/limit_rules.hpp: the fixed and the adaptive (PMOD-style) window,
// and limits made from them.
#include <emflow/pipelines/tfp/limit_rules.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "test_env.hpp"

namespace {

//! The bulk a window of `width` keys yields over keys holding `density` items each; at least
//! one, since a window starts at the top item's key.
std::size_t bulk_for(double density, std::uint64_t width) {
    return std::max<std::size_t>(1, std::size_t(density * double(width)));
}

//! Runs the window over a constant density until it stops changing; returns the steps taken.
int settle(emflow::pipelines::tfp::adaptive_window& w, double density, int max_steps = 200) {
    for (int step = 0; step < max_steps; ++step) {
        const unsigned before = w.log_width();
        w.observe(bulk_for(density, w.width()));
        if (w.log_width() == before) return step;
    }
    return max_steps;
}

//! What memory_target_bulk reads of a parallel_priority_queue: its config's memory budget and
//! its item type.
struct queue_of_24_byte_items {
    struct layout_type {
        std::size_t memory_bytes;
    };
    using value_type = std::array<char, 24>;
    layout_type cfg;
    const layout_type& layout() const { return cfg; }
};

}  // namespace

TEST_CASE("a fixed window never changes", "[limit_rules]") {
    emflow::pipelines::tfp::fixed_window w(100);
    for (std::size_t bulk : {0u, 1u, 1000000u}) {
        w.observe(bulk, bulk > 10);
        CHECK(w.width() == 100);
    }
    CHECK_THROWS_AS(emflow::pipelines::tfp::fixed_window(0), std::invalid_argument);
}

TEST_CASE("the adaptive window settles inside the target band for any density", "[limit_rules]") {
    const std::size_t target = 1000;
    for (double density : {1e-3, 0.01, 0.37, 1.0, 3.0, 17.5, 250.0, 999.0, 1e4, 1e6}) {
        INFO("density " << density);
        emflow::pipelines::tfp::adaptive_window w(target, 10);
        const int steps = settle(w, density);
        // Each step moves by the nearest power of two, so few steps suffice.
        CHECK(steps <= 4);
        const std::size_t bulk = bulk_for(density, w.width());
        if (w.log_width() > 0) {
            CHECK(bulk >= target / 2);
            CHECK(bulk <= 2 * target);
        } else {
            CHECK(density >= target / 2.0);  // width 1 is the floor; only dense keys reach it
        }
        // Settled: more bulks of the same density leave it alone.
        for (int i = 0; i < 10; ++i) w.observe(bulk_for(density, w.width()));
        CHECK(bulk_for(density, w.width()) == bulk);
    }
}

TEST_CASE("the adaptive window follows a changing density", "[limit_rules]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> log_density(-6, 6);
    emflow::pipelines::tfp::adaptive_window w(4096);
    for (int phase = 0; phase < 50; ++phase) {
        const double density = std::pow(10.0, log_density(rng));
        INFO("phase " << phase << " density " << density);
        CHECK(settle(w, density) <= 6);
        const std::size_t bulk = bulk_for(density, w.width());
        if (w.log_width() == 0)
            CHECK(density >= 2048);  // even the narrowest window is too full: nothing to do
        else
            CHECK((bulk >= 2048 && bulk <= 2 * 4096));
    }
}

TEST_CASE("empty bulks double the window, truncated bulks shrink it", "[limit_rules]") {
    emflow::pipelines::tfp::adaptive_window w(100, 5);
    w.observe(0);
    CHECK(w.log_width() == 6);
    w.observe(0);
    CHECK(w.log_width() == 7);
    w.observe(100, true);  // cut off at a maximum: the window held more than asked
    CHECK(w.log_width() == 6);
    w.observe(100 * 64);  // 64 times too many: unmerge by 6 steps
    CHECK(w.log_width() == 0);
    w.observe(1);  // 100 times too few: merge by round(log2(100)) = 7 steps
    CHECK(w.log_width() == 7);
    w.observe(100);  // in band: unchanged
    w.observe(51);
    w.observe(199);
    CHECK(w.log_width() == 7);
}

TEST_CASE("the adaptive window stays within its bounds", "[limit_rules]") {
    emflow::pipelines::tfp::adaptive_window w(1000, 0, 3, 8);
    CHECK(w.log_width() == 3);
    for (int i = 0; i < 20; ++i) w.observe(0);
    CHECK(w.width() == 256);
    for (int i = 0; i < 20; ++i) w.observe(1000000);
    CHECK(w.width() == 8);
    CHECK_THROWS_AS(emflow::pipelines::tfp::adaptive_window(1), std::invalid_argument);
    CHECK_THROWS_AS(emflow::pipelines::tfp::adaptive_window(100, 0, 9, 8), std::invalid_argument);
    CHECK_THROWS_AS(emflow::pipelines::tfp::adaptive_window(100, 0, 0, 63), std::invalid_argument);
}

TEST_CASE("the memory-derived target: a band-top bulk and its pushes fill the budget",
          "[limit_rules]") {
    for (std::size_t item : {1u, 8u, 16u, 24u, 4096u}) {
        for (std::size_t memory :
             {std::size_t(64) << 10, std::size_t(32) << 20, std::size_t(3) << 30}) {
            INFO("item " << item << " bytes, budget " << memory);
            const std::size_t t = emflow::pipelines::tfp::memory_target_bulk(memory, item);
            // 2t items held by the caller plus about as many pushed back fit in the budget, and
            // t is the largest target for which they do.
            CHECK(4 * t * item <= memory);
            CHECK(4 * (t + 1) * item > memory);
        }
    }
    CHECK(emflow::pipelines::tfp::memory_target_bulk(std::size_t(32) << 20, 16) == std::size_t(1)
                                                                                       << 19);
    CHECK(emflow::pipelines::tfp::memory_target_bulk(std::size_t(64) << 20, 16) == std::size_t(1)
                                                                                       << 20);
    // Budgets too small for any bulk still give a target an adaptive_window accepts.
    CHECK(emflow::pipelines::tfp::memory_target_bulk(100, 16) == 2);
    CHECK_NOTHROW(
        emflow::pipelines::tfp::adaptive_window(emflow::pipelines::tfp::memory_target_bulk(0, 16)));
    CHECK_THROWS_AS(emflow::pipelines::tfp::memory_target_bulk(1 << 20, 0), std::invalid_argument);
}

TEST_CASE("the memory-derived target of a queue uses its budget and item size", "[limit_rules]") {
    for (std::size_t memory : {std::size_t(1) << 20, std::size_t(48) << 20}) {
        const queue_of_24_byte_items q{{memory}};
        CHECK(emflow::pipelines::tfp::memory_target_bulk(q) ==
              emflow::pipelines::tfp::memory_target_bulk(memory, 24));
    }
}

TEST_CASE("a key limit rule puts the limit a window past the top's key", "[limit_rules]") {
    struct item {
        std::uint64_t key;
        int payload;
    };
    emflow::pipelines::tfp::adaptive_window w(64, 4);
    auto rule = emflow::pipelines::tfp::make_key_limit_rule(
        w, [](const item& x) { return x.key; },
        [](std::uint64_t k) {
            return item{k, -1};
        });
    CHECK(rule.next_limit(item{100, 7}).key == 116);
    rule.observe(0);
    CHECK(rule.window().width() == 32);
    CHECK(rule.next_limit(item{100, 7}).key == 132);
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    CHECK(rule.next_limit(item{max - 3, 0}).key == max);  // saturates instead of wrapping

    emflow::pipelines::tfp::fixed_window f(10);
    auto fixed = emflow::pipelines::tfp::make_key_limit_rule(
        f, [](std::uint64_t x) { return x; }, [](std::uint64_t k) { return k; });
    CHECK(fixed.next_limit(std::uint64_t(5)) == 15);
}
