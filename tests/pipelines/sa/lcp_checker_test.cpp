// SPDX-License-Identifier: BSL-1.0
// The external LCP-array checker against Kasai's LCP array: accepts every correct array (all index
// widths, a budget that forces its sorters to disk) and rejects every mutation: one entry one too
// large or one too small, LCP[0] not 0, a length beyond the shorter suffix, two entries swapped,
// the array truncated; in slices of a few pairs too, mutations next to a slice's ends; a source
// failing in any slice.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/lcp_checker.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::text_bytes;

namespace {

//! The checker's verdict, in slices of slice_pairs pairs (0: its default).
template <class Index>
check_result check(const text_bytes& t, const std::vector<std::uint64_t>& sa,
                   const std::vector<std::uint64_t>& lcp,
                   std::size_t memory = 64 * emflow_test::MiB, std::uint64_t slice_pairs = 0) {
    const auto s = emflow_test::as_index<Index>(sa), l = emflow_test::as_index<Index>(lcp);
    auto from = [](const auto& v) {
        return [&v](std::uint64_t k) { return streamify(v.begin() + std::ptrdiff_t(k), v.end()); };
    };
    return check_lcp_array<Index>([&] { return streamify(t); }, t.size(), from(s), from(l),
                                  l.size(), emflow_test::checker_options(memory), slice_pairs);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("lcp checker accepts correct LCP arrays", "[sa][lcp_checker]",
                        emflow_test::sa_indices) {
    emflow_test::configure_test_disks();
    for (const auto& [name, t] : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(name);
        const auto sa = emflow_test::reference_sa(t);
        auto r = check<TestType>(t, sa, emflow_test::reference_lcp(t, sa));
        CHECK(r.reason == "");
        CHECK(r.ok);
    }
}

TEST_CASE("lcp checker spills to disk with a small budget", "[sa][lcp_checker]") {
    emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(std::size_t(1) << 20, 4, emflow_test::test_seed());
    const auto sa = emflow_test::reference_sa(t);
    auto r = check<std::uint32_t>(t, sa, emflow_test::reference_lcp(t, sa), 8 << 20);
    CHECK(r.reason == "");
    CHECK(r.ok);
}

TEST_CASE("lcp checker rejects mutated LCP arrays", "[sa][lcp_checker]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    for (const auto& t :
         {emflow_test::random_text(5000, 2, seed), emflow_test::fibonacci_text(5000),
          emflow_test::long_runs_text(5000, 300, seed + 1)}) {
        const auto sa = emflow_test::reference_sa(t);
        const auto lcp = emflow_test::reference_lcp(t, sa);
        for (int trial = 0; trial < 10; ++trial) {
            const std::size_t k = 1 + rng() % (t.size() - 1);
            INFO("k = " << k << ", LCP[k] = " << lcp[k]);
            auto up = lcp;
            ++up[k];
            CHECK_FALSE(check<std::uint32_t>(t, sa, up).ok);
            if (lcp[k] > 0) {
                auto down = lcp;
                --down[k];
                CHECK_FALSE(check<std::uint32_t>(t, sa, down).ok);
            }
            auto far = lcp;
            far[k] = t.size();
            const auto r = check<std::uint32_t>(t, sa, far);
            CHECK_FALSE(r.ok);
            CHECK(r.reason.find("longer than the suffix") != std::string::npos);
            const std::size_t k2 = 1 + rng() % (t.size() - 1);
            if (lcp[k] != lcp[k2]) {
                auto swapped = lcp;
                std::swap(swapped[k], swapped[k2]);
                CHECK_FALSE(check<std::uint32_t>(t, sa, swapped).ok);
            }
        }
        auto first = lcp;
        first[0] = 1;
        CHECK(check<std::uint32_t>(t, sa, first).reason.find("LCP[0]") != std::string::npos);
        auto shorter = lcp;
        shorter.pop_back();
        CHECK_FALSE(check<std::uint32_t>(t, sa, shorter).ok);
    }
}

TEST_CASE("lcp checker in slices: accepts, and rejects mutations next to a slice's ends",
          "[sa][lcp_checker]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    const std::size_t memory = 64 * emflow_test::MiB;
    // (text length, pairs per slice): one graph run per slice, so short texts for tiny slices
    // (and a quarter of them under the sanitizers, whose graph runs are many times slower)
    const std::size_t tiny = emflow_test::under_address_sanitizer() ? 50 : 200;
    for (auto [n, slice] : {std::pair<std::size_t, std::uint64_t>{tiny, 1},
                            {tiny, 2},
                            {tiny * 3 / 2, 3},
                            {3000, 64},
                            {3000, 2999},
                            {3000, 3000}}) {
        INFO("n = " << n << ", slice = " << slice);
        const auto t = emflow_test::random_text(n, 2, seed + n);
        const auto sa = emflow_test::reference_sa(t);
        const auto lcp = emflow_test::reference_lcp(t, sa);
        auto r = check<emflow_test::index40>(t, sa, lcp, memory, slice);
        CHECK(r.reason == "");
        CHECK(r.ok);
        for (std::uint64_t end = slice; end < n; end += std::max<std::uint64_t>(slice, n / 3))
            for (std::uint64_t k : {end - 1, end, end + 1}) {
                if (k == 0 || k >= n) continue;
                INFO("k = " << k << ", LCP[k] = " << lcp[k]);
                auto up = lcp;
                ++up[k];
                CHECK_FALSE(check<std::uint32_t>(t, sa, up, memory, slice).ok);
                if (lcp[k] > 0) {
                    auto down = lcp;
                    --down[k];
                    CHECK_FALSE(check<std::uint32_t>(t, sa, down, memory, slice).ok);
                }
            }
        auto short_sa = sa;  // the LCP array has n entries, the suffix array one less
        short_sa.pop_back();
        r = check<std::uint32_t>(t, short_sa, lcp, memory, slice);
        CHECK_FALSE(r.ok);
        CHECK(r.reason.find("ends after") != std::string::npos);
    }
}

TEST_CASE("lcp checker: a source failing in any slice reaches the caller, no file left",
          "[sa][lcp_checker][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(1000, 2, emflow_test::test_seed());
    const auto sa = emflow_test::as_index<std::uint32_t>(emflow_test::reference_sa(t));
    const auto lcp = emflow_test::as_index<std::uint32_t>(
        emflow_test::reference_lcp(t, emflow_test::reference_sa(t)));
    const std::uint64_t slice = 300;  // slices from 0, 300, 600 and 900
    // fail_at: which source (0 text, 1 SA, 2 LCP) throws at its opening for which slice
    for (int source = 0; source < 3; ++source)
        for (std::uint64_t failing_slice = 0; failing_slice < 4; ++failing_slice) {
            INFO("source " << source << " fails in slice " << failing_slice);
            std::uint64_t opened[3] = {0, 0, 0};
            auto failing = [&](int which, const auto& v, std::size_t first) {
                const bool fail = which == source && opened[which]++ == failing_slice;
                return generate(v.size() - first, [&v, fail, k = first]() mutable {
                    if (fail) throw std::runtime_error("source failed");
                    return v[k++];
                });
            };
            CHECK_THROWS_WITH(
                check_lcp_array<std::uint32_t>(
                    [&] { return failing(0, t, 0); }, t.size(),
                    [&](std::uint64_t k) { return failing(1, sa, std::size_t(k)); },
                    [&](std::uint64_t k) { return failing(2, lcp, std::size_t(k)); }, lcp.size(),
                    emflow_test::checker_options(64 * emflow_test::MiB), slice),
                "source failed");
            CHECK(opened[source] == failing_slice + 1);
            CHECK(dir.entries() == 0);
        }
}
