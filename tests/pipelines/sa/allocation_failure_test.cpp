// SPDX-License-Identifier: BSL-1.0
// Suffix sorting when RAM runs out: a failed allocation at any point of DC3 (both pipelining
// modes), prefix doubling and eSAIS (with its LCP array), all through external levels, and of
// DC3 whose first reduced text is ranked in RAM by prefix doubling, reaches the caller as
// std::bad_alloc, leaves no temp file, and the next construction is correct; so does every
// failed allocation of the in-memory doubling itself. A binary of its own (failing_new.hpp).
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/dc3.hpp>
#include <emflow/pipelines/sa/doubling.hpp>
#include <emflow/pipelines/sa/esais.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "failing_new.hpp"
#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::MiB;

namespace {

//! Settings of a DC3 or eSAIS construction whose levels run in external memory down to 1000
//! symbols.
template <class Settings>
Settings external(pipelining mode) {
    return emflow_test::make_sa_options<Settings>(24 * MiB, mode, 1000);
}

}  // namespace

TEST_CASE("a failed allocation in a suffix-array construction reaches the caller", "[sa][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        const auto t = emflow_test::random_text(200000, 4, emflow_test::test_seed());
        const auto open = [&] { return streamify(t); };
        const auto expected = emflow_test::reference_sa(t);
        sa_vector<std::uint32_t> out;
        for (auto mode : {pipelining::parallel, pipelining::traditional}) {
            INFO("DC3, mode " << int(mode));
            const auto s = external<emflow::pipelines::sa::detail::dc3::dc3_options>(mode);
            auto run = [&] {
                emflow::pipelines::sa::detail::dc3::run<std::uint32_t>(open, t.size(), out, s);
            };
            emflow_test::check_failures_reach_the_caller(run);
            run();
            emflow_test::check_reference(t, std::vector<std::uint64_t>(out.begin(), out.end()));
        }
        {
            INFO("prefix doubling");
            sa_options cfg;
            cfg.memory_bytes = 24 * MiB;
            auto run = [&] { prefix_doubling<std::uint32_t>(open, t.size(), out, cfg, 2); };
            emflow_test::check_failures_reach_the_caller(run);
            run();
            emflow_test::check_reference(t, std::vector<std::uint64_t>(out.begin(), out.end()));
        }
        {
            INFO("eSAIS with the LCP array");
            const auto s =
                external<emflow::pipelines::sa::detail::esais::esais_options>(pipelining::parallel);
            sa_vector<std::uint32_t> lcp;
            auto run = [&] {
                emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, t.size(), out, s,
                                                                         &lcp);
            };
            emflow_test::check_failures_reach_the_caller(run);
            run();
            const std::vector<std::uint64_t> sa(out.begin(), out.end());
            emflow_test::check_reference(t, sa);
            CHECK(std::vector<std::uint64_t>(lcp.begin(), lcp.end()) ==
                  emflow_test::reference_lcp(t, sa));
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a failed allocation in DC3's in-memory doubling reaches the caller", "[sa][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    {
        // Random bytes and a copy of some of them: level 1 (108 000 or 146 666 names, those of
        // the copy repeated) runs in RAM. Doubling ranks it for a copy of 2 000 bytes; for one
        // of 60 000 it gives up at its work limit and SA-IS ranks what it leaves.
        for (std::ptrdiff_t copy : {2000, 60000}) {
            auto t = emflow_test::random_text(160000, 256, seed);
            const std::vector<std::uint8_t> piece(t.begin() + 5000, t.begin() + 5000 + copy);
            t.insert(t.end(), piece.begin(), piece.end());  // not from t itself: undefined
            const auto open = [&] { return streamify(t); };
            sa_vector<std::uint32_t> out;
            for (auto mode : {pipelining::parallel, pipelining::traditional}) {
                INFO("DC3, copy of " << copy << ", mode " << int(mode));
                const auto s =
                    emflow_test::make_sa_options<emflow::pipelines::sa::detail::dc3::dc3_options>(
                        24 * MiB, mode, 150000);
                auto run = [&] {
                    emflow::pipelines::sa::detail::dc3::run<std::uint32_t>(open, t.size(), out, s);
                };
                emflow_test::check_failures_reach_the_caller(run);
                run();
                emflow_test::check_reference(t, std::vector<std::uint64_t>(out.begin(), out.end()));
            }
        }
    }
    CHECK(dir.entries() == 0);
    // The doubling alone: every one of its large requests failing in turn.
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> text(200000);
    for (auto& c : text) c = std::uint32_t(1 + rng() % text.size());
    std::vector<std::uint32_t> expected(text.size());
    emflow::pipelines::sa::detail::dc3::suffix_array_in_memory(text.data(), text.size(),
                                                               text.size(), expected.data());
    for (bool parallel : {false, true}) {
        INFO("parallel " << parallel);
        std::vector<std::uint64_t> pairs;
        auto run = [&] {
            std::vector<std::uint64_t>().swap(pairs);  // allocated anew by every run
            std::vector<std::uint32_t> s = text;
            std::size_t sigma = text.size();
            return emflow::pipelines::sa::detail::dc3::suffix_array_by_doubling(
                s, sigma, pairs, parallel, 2 * text.size());
        };
        const long total = emflow_test::count_large_requests(run);
        REQUIRE(total >= 2);  // the copy of the text and the pairs
        for (long k = 0; k < total; ++k) {
            INFO("request " << k << " of " << total << " fails");
            emflow_test::large_request_failure fail(k);
            CHECK_THROWS_AS(run(), std::bad_alloc);
        }
        REQUIRE(run());
        std::vector<std::uint32_t> sa(pairs.size());
        std::transform(pairs.begin(), pairs.end(), sa.begin(),
                       [](std::uint64_t p) { return std::uint32_t(p); });
        CHECK(sa == expected);
    }
}
