// SPDX-License-Identifier: BSL-1.0
// eSAIS's LCP array against Kasai's with 32-bit indices (the other widths:
// esais_widths_test.cpp): every standard text in both pipelining modes, tiny texts, chains with
// continuations, tiny bulks, a budget that sends the queue and the sorters to disk, deep
// recursion, a failing text source (the cases shared with esais_test.cpp:
// esais_test_support.hpp); the S* LCP search in slices of a few pairs, a text source failing at
// each of its openings; the least budget with a text in an stxxl::vector; the LCP checker accepts
// the output.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/lcp_checker.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;

TEST_CASE("esais lcp: tiny texts", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::tiny_texts(arrays::sa_and_lcp, 32, {1, 2, 3});
}

TEST_CASE("esais lcp: standard texts", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::standard_texts(arrays::sa_and_lcp);
}

TEST_CASE("esais lcp: on STXXL's sequential priority queue", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    esais_cases::sequential_queue(arrays::sa_and_lcp,
                                  {emflow_test::random_text(100000, 4, seed),
                                   emflow_test::long_runs_text(200000, 70000, seed + 1)});
}

TEST_CASE("esais lcp: chains longer than their windows (continuations)", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::continuations(arrays::sa_and_lcp);
}

TEST_CASE("esais lcp: tiny bulks (chunked pops, rounds through the queue)", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::tiny_bulks(arrays::sa_and_lcp);
}

TEST_CASE("esais lcp: every phase's progress reaches its total", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::progress_totals(arrays::sa_and_lcp);
}

TEST_CASE("esais lcp: bulks processed by several threads", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::parallel_bulks(arrays::sa_and_lcp);
}

TEST_CASE("esais lcp: the S* LCP search in slices of a few pairs", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    // slices of one pair (a look-up sort and a text scan each), of a few, and slices whose pairs
    // ask nothing (their windows would pass the end of a period-doubling text's long prefixes)
    // (a graph run per slice: a sixth of the texts under the sanitizers, slower a hundredfold)
    const std::size_t d = emflow_test::under_address_sanitizer() ? 6 : 1;
    for (std::uint64_t slice : {1, 3, 64}) {
        INFO("slice of " << slice << " pairs");
        auto s = settings(32 * MiB, pipelining::parallel, 1000);
        s.lcp_slice_pairs = slice;
        for (const auto& t : {emflow_test::random_text(3000 / d, 2, seed),
                              emflow_test::long_runs_text(6000 / d, 700, seed + 1),
                              emflow_test::period_doubling_text(4000 / d)})
            check_32(arrays::sa_and_lcp, t, s);
    }
}

TEST_CASE("esais lcp: small budget, queue and sorters spill", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::least_budget(arrays::sa_and_lcp, {4});
}

TEST_CASE("esais lcp: deep recursion, long common prefixes", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    esais_cases::deep_recursion(arrays::sa_and_lcp);
}

// The S* LCP search reads the text twice at once: over an stxxl::vector with STXXL's 2 MiB
// blocks (a reader of 6 MiB), the least budget is above minimum_budget; below it the run fails
// before the text is read, at it the run succeeds.
TEST_CASE("esais lcp: the least budget counts the text's readers", "[sa][esais][lcp][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(300000, 4, emflow_test::test_seed());
    stxxl::VECTOR_GENERATOR<std::uint8_t>::result text;
    for (std::uint8_t c : t) text.push_back(c);
    std::uint64_t read = 0;
    auto open = [&] { return streamify(text) | tap([&](std::uint8_t) { ++read; }); };
    auto s = settings(16 * MiB, pipelining::parallel);
    const std::uint64_t least =
        emflow::pipelines::sa::detail::esais::least_budget<std::uint32_t>(open, t.size(), s, true);
    CHECK(least > emflow::pipelines::sa::detail::esais::minimum_budget(pipelining::parallel));
    CHECK(read == 0);
    emflow::pipelines::sa::sa_vector<std::uint32_t> sa, lcp;
    s.memory_bytes = least - 1;
    try {
        emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, t.size(), sa, s, &lcp);
        FAIL("no config_error");
    } catch (const config_error& e) {
        CHECK(std::string(e.what()).find(std::to_string(least)) != std::string::npos);
    }
    CHECK(read == 0);
    s.memory_bytes = least;
    emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, t.size(), sa, s, &lcp);
    const auto got_sa = emflow_test::sa_of<std::uint32_t>([&](auto& out) { out.swap(sa); });
    const auto got_lcp = emflow_test::sa_of<std::uint32_t>([&](auto& out) { out.swap(lcp); });
    emflow_test::check_reference(t, got_sa);
    CHECK(emflow_test::first_mismatch(got_lcp, emflow_test::reference_lcp(t, got_sa)) ==
          std::string::npos);
    CHECK(dir.entries() == 0);
}

TEST_CASE("esais lcp: an exception from the text source reaches the caller", "[sa][esais][lcp]") {
    esais_cases::failing_text_source(arrays::sa_and_lcp);
}

// The S* LCP search opens the text in each round and slice: most openings are its, alike slice
// after slice, so the case fails at the first, every 12th (under the sanitizers, a hundred times
// slower here, every 56th) from an offset the seed picks, and the last; seeds cover them all.
TEST_CASE("esais lcp: the text source failing at any of its openings", "[sa][esais][lcp]") {
    auto s = settings(32 * MiB, pipelining::traditional, 1000);
    s.lcp_slice_pairs = 500;
    const std::size_t stride = emflow_test::under_address_sanitizer() ? 56 : 12;
    esais_cases::failing_openings(arrays::sa_and_lcp, s, stride, 8);
}

TEST_CASE("esais lcp: the public API, push-node outputs, the LCP checker accepts",
          "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(50000, 3, emflow_test::test_seed());
    sa_options cfg;
    cfg.memory_bytes = 32 * MiB;
    emflow::pipelines::sa::sa_vector<std::uint32_t> sa, lcp;
    esais<std::uint32_t>([&] { return streamify(t); }, t.size(), sa, lcp, cfg);
    REQUIRE(lcp.size() == t.size());
    auto from = [](const emflow::pipelines::sa::sa_vector<std::uint32_t>& v) {
        return [&v](std::uint64_t k) { return streamify(v.cbegin() + std::int64_t(k), v.cend()); };
    };
    const check_result r = check_lcp_array<std::uint32_t>([&] { return streamify(t); }, t.size(),
                                                          from(sa), from(lcp), lcp.size(), cfg);
    CHECK(r.ok);
    // a push node for each output gets the same arrays
    std::vector<std::uint64_t> sa_pushed, lcp_pushed;
    bool sa_stopped = false, lcp_stopped = false;
    emflow_test::collect_sink<std::uint32_t> sa_sink{&sa_pushed, &sa_stopped};
    emflow_test::collect_sink<std::uint32_t> lcp_sink{&lcp_pushed, &lcp_stopped};
    esais<std::uint32_t>([&] { return streamify(t); }, t.size(), sa_sink, lcp_sink, cfg);
    CHECK((sa_stopped && lcp_stopped));
    const auto as_vector = [](const emflow::pipelines::sa::sa_vector<std::uint32_t>& v) {
        std::vector<std::uint64_t> x;
        for (emflow::pipelines::sa::sa_vector<std::uint32_t>::bufreader_type r(v); !r.empty(); ++r)
            x.push_back(*r);
        return x;
    };
    CHECK(sa_pushed == as_vector(sa));
    CHECK(lcp_pushed == as_vector(lcp));
    // a wrong LCP array is told apart
    {
        auto w = lcp.begin() + 1000;
        *w = std::uint32_t(*w) + 1;
    }
    CHECK_FALSE(check_lcp_array<std::uint32_t>([&] { return streamify(t); }, t.size(), from(sa),
                                               from(lcp), lcp.size(), cfg)
                    .ok);
}
