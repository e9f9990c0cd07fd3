// SPDX-License-Identifier: BSL-1.0
// DC3 against libdivsufsort: every standard text through the external levels (the in-memory base
// case held back to tiny texts) and through the public entry point, all three index types, both
// pipelining modes (identical output); budgets that make the sorters spill; deep recursion; output
// into an stxxl::vector and into a push node; a too small budget, a too long text and a failing
// text source; the base case's ranks (what a level reads instead of its reduced text's suffix
// array).
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/dc3.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::text_bytes;

namespace {

using emflow_test::collect_sink;
using emflow_test::first_mismatch;
using emflow_test::MiB;

//! A settings object: budget, mode, and the longest text a level runs in RAM.
emflow::pipelines::sa::detail::dc3::dc3_options settings(
    std::size_t memory, pipelining mode, std::uint64_t in_memory_symbols = ~std::uint64_t(0)) {
    return emflow_test::make_sa_options<emflow::pipelines::sa::detail::dc3::dc3_options>(
        memory, mode, in_memory_symbols);
}

//! The suffix array of t by DC3 with settings s, as 64-bit values.
template <class Index>
std::vector<std::uint64_t> dc3_sa(const text_bytes& t,
                                  const emflow::pipelines::sa::detail::dc3::dc3_options& s) {
    return emflow_test::sa_of<Index>([&](auto& out) {
        emflow::pipelines::sa::detail::dc3::run<Index>([&] { return streamify(t); }, t.size(), out,
                                                       s);
    });
}

//! Both modes give the reference suffix array of t.
template <class Index>
void check_both_modes(const text_bytes& t, std::size_t memory, std::uint64_t in_memory_symbols) {
    emflow_test::check_both_modes(t, [&](pipelining mode) {
        return dc3_sa<Index>(t, settings(memory, mode, in_memory_symbols));
    });
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("dc3: standard texts through external levels", "[sa][dc3]",
                        emflow_test::sa_indices) {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        check_both_modes<TestType>(nt.text, 24 * MiB, 1000);
    }
}

TEST_CASE("dc3: tiny texts through external levels only", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t n = 0; n <= 30; ++n) {
        for (unsigned sigma : {1u, 2u, 256u}) {
            INFO("n = " << n << ", sigma = " << sigma);
            check_both_modes<std::uint32_t>(emflow_test::random_text(n, sigma, seed + n), 24 * MiB,
                                            0);
        }
    }
}

TEST_CASE("dc3: standard texts through the public entry point", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name);
        const auto ref = emflow_test::reference_sa(nt.text);
        sa_options cfg;
        cfg.memory_bytes = 64 * MiB;
        sa_vector<std::uint32_t> out;
        dc3<std::uint32_t>([&] { return streamify(nt.text); }, nt.text.size(), out, cfg);
        std::vector<std::uint64_t> got(out.begin(), out.end());
        CHECK(first_mismatch(got, ref) == std::string::npos);
    }
}

TEST_CASE("dc3: small budget, sorters spill", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    // 1 MiB texts, 16 MiB budget: three external levels, several runs per sorter
    for (const auto& t : {emflow_test::random_text(MiB, 4, seed), emflow_test::fibonacci_text(MiB)})
        check_both_modes<std::uint32_t>(t, 16 * MiB, ~std::uint64_t(0));
}

TEST_CASE("dc3: the least budget", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    // sorters of 2 MiB: 16K to 32K tuples per run, more runs than the merger holds blocks for
    const auto t = emflow_test::random_text(MiB / 2, 16, emflow_test::test_seed());
    const auto ref = emflow_test::reference_sa(t);
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        auto got = dc3_sa<std::uint32_t>(
            t, settings(emflow::pipelines::sa::detail::dc3::external_minimum(mode), mode, 1000));
        CHECK(first_mismatch(got, ref) == std::string::npos);
    }
}

TEST_CASE("dc3: deep recursion", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    // every level external down to 64 symbols: about 20 levels
    check_both_modes<std::uint32_t>(emflow_test::fibonacci_text(200000), 24 * MiB, 64);
    check_both_modes<emflow_test::index40>(emflow_test::period_doubling_text(200000), 24 * MiB, 64);
}

TEST_CASE("dc3: progress phases are named by level", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    std::mutex mutex;
    std::vector<std::string> finished;
    {
        progress report([&](const progress_figures& f) {
            std::lock_guard<std::mutex> lock(mutex);
            if (f.finished) finished.push_back(f.phase);
        });
        auto s = settings(24 * MiB, pipelining::parallel, 1000);
        s.report = &report;
        const auto t = emflow_test::fibonacci_text(2000);  // 2000, 1334, then 890 symbols
        sa_vector<std::uint32_t> out;
        emflow::pipelines::sa::detail::dc3::run<std::uint32_t>([&] { return streamify(t); },
                                                               t.size(), out, s);
    }
    const std::vector<std::string> expected = {
        "DC3 level 0: sort and name the sample", "DC3 level 1: sort and name the sample",
        "DC3 level 2: in-memory ranks",          "DC3 level 1: sort and merge the suffixes",
        "DC3 level 0: rank the sample",          "DC3 level 0: sort and merge the suffixes"};
    CHECK(finished == expected);
}

TEST_CASE("dc3: output into a push node", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(50000, 3, emflow_test::test_seed());
    const auto ref = emflow_test::reference_sa(t);
    for (std::uint64_t in_memory : {std::uint64_t(100), ~std::uint64_t(0)}) {
        INFO("in-memory limit " << in_memory);
        std::vector<std::uint64_t> got;
        bool stopped = false;
        emflow::pipelines::sa::detail::dc3::run<emflow_test::index64>(
            [&] { return streamify(t); }, t.size(),
            collect_sink<emflow_test::index64>{&got, &stopped},
            settings(24 * MiB, pipelining::parallel, in_memory));
        CHECK(stopped);
        CHECK(first_mismatch(got, ref) == std::string::npos);
    }
}

TEST_CASE("dc3: a too small budget or a too long text fails before any work", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    int opened = 0;
    const text_bytes t(4 * MiB, 'a');  // in RAM it would need more than externally
    auto open = [&] {
        ++opened;
        return streamify(t);
    };
    sa_vector<std::uint32_t> out;
    sa_options cfg;
    cfg.memory_bytes = 4 * MiB;
    // The least budget named is the smaller of the external levels' and the text's in RAM.
    auto fails_naming = [&](std::uint64_t n, std::uint64_t minimum) {
        try {
            dc3<std::uint32_t>(open, n, out, cfg);
            FAIL("no config_error");
        } catch (const config_error& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(std::to_string(minimum)) != std::string::npos);
        }
    };
    const std::uint64_t external =
        emflow::pipelines::sa::detail::dc3::external_minimum(pipelining::parallel);
    REQUIRE(emflow::pipelines::sa::detail::dc3::in_memory_need<std::uint32_t>(t.size()) > external);
    fails_naming(t.size(), external);
    const std::uint64_t small = MiB / 4;
    REQUIRE(emflow::pipelines::sa::detail::dc3::in_memory_need<std::uint32_t>(small) < external);
    REQUIRE(emflow::pipelines::sa::detail::dc3::in_memory_need<std::uint32_t>(small) >
            cfg.memory_bytes);
    fails_naming(small, emflow::pipelines::sa::detail::dc3::in_memory_need<std::uint32_t>(small));
    cfg.memory_bytes = 64 * MiB;
    CHECK_THROWS_AS(dc3<std::uint32_t>(open, std::uint64_t(1) << 32, out, cfg),
                    std::invalid_argument);
    CHECK_THROWS_AS(dc3<emflow_test::index40>(open, std::uint64_t(1) << 40, out, cfg),
                    std::invalid_argument);
    CHECK(opened == 0);
}

TEST_CASE("dc3: an exception from the text source reaches the caller", "[sa][dc3]") {
    emflow_test::configure_test_disks();
    const std::uint64_t n = 300000;
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        for (std::uint64_t in_memory : {std::uint64_t(1000), ~std::uint64_t(0)}) {
            INFO("mode " << int(mode) << ", in-memory limit " << in_memory);
            auto open = [&] {
                return generate(n, [k = std::uint64_t(0)]() mutable {
                    if (++k == 200000) throw std::runtime_error("text source failed");
                    return std::uint8_t(k % 7);
                });
            };
            sa_vector<std::uint32_t> out;
            CHECK_THROWS_WITH(emflow::pipelines::sa::detail::dc3::run<std::uint32_t>(
                                  open, n, out, settings(24 * MiB, mode, in_memory)),
                              "text source failed");
        }
    }
}

TEMPLATE_TEST_CASE("dc3: the in-memory base case's ranks invert its suffix array", "[sa][dc3]",
                   std::uint32_t, std::uint64_t) {
    // sigma = n: doubling sorts (in 32 bits); fewer symbols: SA-IS, then the inversion.
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t sigma : {4, 60000, 100000}) {
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            std::vector<TestType> s(100000);
            for (auto& c : s) c = TestType(1 + rng() % sigma);
            std::vector<TestType> sa(s.size());
            emflow::pipelines::sa::detail::dc3::suffix_array_in_memory(s.data(), s.size(), sigma,
                                                                       sa.data());
            std::vector<TestType> expected(s.size());
            for (std::size_t k = 0; k < sa.size(); ++k) expected[sa[k]] = TestType(k + 1);
            INFO("sigma " << sigma << ", mode " << int(mode));
            emflow::pipelines::sa::detail::dc3::rank_in_memory(s, sigma, settings(24 * MiB, mode));
            REQUIRE(s == expected);
        }
    }
}
