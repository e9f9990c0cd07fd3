// SPDX-License-Identifier: BSL-1.0
// The Diamond graph: traditional and parallel variants give identical output and checksums,
// equal to an in-memory reference; several runs per sorter; no temp file left. Every pair may
// occur, the extremes {0, 0} and {2^64-1, 2^64-1} too (the sorters need no sentinels).
#include <catch2/catch.hpp>

#include <emflow/pipelines/diamond/diamond.hpp>

#include <algorithm>
#include <random>

#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::diamond;

namespace {

//! Index of the first difference of a and b (min of the sizes if one is a prefix), or npos.
template <class V>
std::size_t first_mismatch(const V& a, const V& b) {
    auto d = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    return d.first == a.end() && d.second == b.end() ? std::string::npos
                                                     : std::size_t(d.first - a.begin());
}

//! Runs both variants over pairs, checks them against the sorted reference; sorter_bytes 0:
//! the graph's budget assigned automatically, else each sorter's own.
void check_diamond(const std::vector<diamond_pair>& pairs, std::size_t sorter_bytes) {
    const std::size_t n = pairs.size();
    INFO("n = " << n << ", sorter bytes = " << sorter_bytes);
    diamond_input in;
    checksum ref_in;
    for (const auto& p : pairs) {
        in.push_back(p);
        ref_in.add(p);
    }
    std::vector<diamond_pair> ref(pairs);
    std::sort(ref.begin(), ref.end());
    std::vector<diamond_quad> ref_quads;
    checksum ref_out;
    for (const auto& p : ref) {
        ref_quads.emplace_back(p, p);
        ref_out.add(ref_quads.back());
    }
    diamond_options cfg;
    cfg.memory_bytes = 32 << 20;
    cfg.sorter_bytes = sorter_bytes;  // 4 MiB: about 0.1M pairs per run, several per sorter

    for (auto variant : {diamond_variant::traditional, diamond_variant::parallel}) {
        INFO((variant == diamond_variant::parallel ? "parallel" : "traditional") << " variant");
        diamond_output out;
        auto sums = run_diamond(in, out, variant, cfg);
        std::vector<diamond_quad> got(out.begin(), out.end());
        REQUIRE(got.size() == n);
        CHECK(first_mismatch(got, ref_quads) == std::string::npos);  // not the whole vector
        CHECK(sums.input == ref_in);
        CHECK(sums.asc_path == ref_in);
        CHECK(sums.desc_path == ref_in);
        CHECK(sums.output == ref_out);
    }
}

}  // namespace

TEST_CASE("Diamond: traditional and parallel variants agree with the reference",
          "[pipelines][diamond]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(400000 + rng() % 1000)}) {
        std::vector<diamond_pair> pairs;
        for (std::size_t i = 0; i < n; ++i) {
            pairs.emplace_back(rng() % (n / 2 + 1), rng() % (n / 2 + 1));  // duplicates in both
        }
        check_diamond(pairs, 0);
        check_diamond(pairs, 4 << 20);
    }
    CHECK(dir.entries() == 0);
}

// Regression: with STXXL's merger, every pair with second == 0 equalled the descending sort's
// max_value() padding under an order by the second component alone, and the merge emitted
// padding instead of some of those pairs. The sorts by second now compare only that component.
TEST_CASE("Diamond: pairs whose second component is 0 survive both sorts by second",
          "[pipelines][diamond]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<diamond_pair> pairs;
    for (std::uint64_t i = 0; i < 300000; ++i)
        pairs.emplace_back(1 + (i * 7919) % 100000, i % 10 == 0 ? 0 : 1 + (i * 104729) % 50000);
    check_diamond(pairs, 4 << 20);
    CHECK(dir.entries() == 0);
}

TEST_CASE("Diamond: the extreme pairs are sorted like any other", "[pipelines][diamond]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t top = ~std::uint64_t(0);
    std::vector<diamond_pair> pairs;
    for (std::uint64_t i = 0; i < 200000; ++i)
        pairs.emplace_back(i % 3 == 0   ? 0
                           : i % 3 == 1 ? top
                                        : i,
                           i % 5 == 0   ? 0
                           : i % 5 == 1 ? top
                                        : i);
    check_diamond(pairs, 4 << 20);
    CHECK(dir.entries() == 0);
}
