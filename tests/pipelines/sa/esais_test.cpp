// SPDX-License-Identifier: BSL-1.0
// eSAIS against libdivsufsort with 32-bit indices (the other widths: esais_widths_test.cpp):
// every standard text with a budget that sends the queue and the sorters to disk and the
// recursion through external DC3 levels, both pipelining modes, both queues; continuations, tiny
// bulks, the least budget, deep recursion; a too small budget and a too long text; a failing
// text source, also at each of its openings (the cases shared with esais_lcp_test.cpp:
// esais_test_support.hpp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;

TEST_CASE("esais: tiny texts", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::tiny_texts(arrays::sa, 40, {1, 2, 3, 256});
}

TEST_CASE("esais: standard texts", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::standard_texts(arrays::sa);
}

TEST_CASE("esais: on STXXL's sequential priority queue", "[sa][esais]") {
    emflow_test::configure_test_disks();
    std::vector<text_bytes> texts;
    for (auto& nt : emflow_test::standard_texts(emflow_test::test_seed()))
        texts.push_back(std::move(nt.text));
    esais_cases::sequential_queue(arrays::sa, texts);
}

TEST_CASE("esais: chains longer than their windows (continuations)", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::continuations(arrays::sa);
}

TEST_CASE("esais: tiny bulks (chunked pops, rounds through the queue)", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::tiny_bulks(arrays::sa);
}

TEST_CASE("esais: every phase's progress reaches its total", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::progress_totals(arrays::sa);
}

TEST_CASE("esais: bulks processed by several threads", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::parallel_bulks(arrays::sa);
}

TEST_CASE("esais: ranked seeds follow their bucket's placed suffixes", "[sa][esais]") {
    // "banana": L-type a(5) n(4) n(2) b(0), S-type a(3) a(1) (S* both), L-part starts n(4) n(2)
    emflow::pipelines::sa::detail::esais::bucket_counts n;
    n.l_type['a'] = n.l_type['b'] = 1;
    n.l_type['n'] = 2;
    n.s_type['a'] = n.sstar['a'] = 2;
    n.lstar['n'] = 2;
    const auto l = emflow::pipelines::sa::detail::esais::bucket_ranks::of(n, false);
    // L-pass: the end (rank 0), then a: 1 L, 2 seeds; b: 1 L; n: 2 L
    CHECK(l.first['a'] == 1);
    CHECK(l.seeds['a'] == 2);
    CHECK(l.first['b'] == 4);
    CHECK(l.seeds['b'] == 5);
    CHECK(l.first['n'] == 5);
    CHECK(l.placed['n'] == 2);
    CHECK(l.seeds['n'] == 7);
    // S-pass, buckets downwards: n: 2 seeds; b: none; a: 2 S
    const auto s = emflow::pipelines::sa::detail::esais::bucket_ranks::of(n, true);
    CHECK(s.first['n'] == 0);
    CHECK(s.seeds['n'] == 0);
    CHECK(s.first['b'] == 2);
    CHECK(s.first['a'] == 2);
    CHECK(s.placed['a'] == 2);
    CHECK(s.seeds['a'] == 4);
}

TEST_CASE("esais: small budget, queue and sorters spill", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::least_budget(arrays::sa, {4, 256});
}

TEST_CASE("esais: deep recursion", "[sa][esais]") {
    emflow_test::configure_test_disks();
    esais_cases::deep_recursion(arrays::sa);
}

TEST_CASE("esais: a too small budget or a too long text fails before any work", "[sa][esais]") {
    emflow_test::configure_test_disks();
    int opened = 0;
    const text_bytes t(MiB, 'a');
    auto open = [&] {
        ++opened;
        return streamify(t);
    };
    sa_vector<std::uint32_t> out;
    sa_options cfg;
    cfg.memory_bytes = 4 * MiB;
    try {
        esais<std::uint32_t>(open, t.size(), out, cfg);
        FAIL("no config_error");
    } catch (const config_error& e) {
        const std::string minimum = std::to_string(
            emflow::pipelines::sa::detail::esais::minimum_budget(pipelining::parallel));
        CHECK(std::string(e.what()).find(minimum) != std::string::npos);
    }
    cfg.memory_bytes = 64 * MiB;
    CHECK_THROWS_AS(esais<std::uint32_t>(open, std::uint64_t(1) << 32, out, cfg),
                    std::invalid_argument);
    CHECK(opened == 0);
}

TEST_CASE("esais: an exception from the text source reaches the caller", "[sa][esais]") {
    esais_cases::failing_text_source(arrays::sa);
}

// The suffix array alone opens the text a few times (the scan, then the seed scans of the
// passes): the case fails at each opening.
TEST_CASE("esais: the text source failing at any of its openings", "[sa][esais]") {
    esais_cases::failing_openings(arrays::sa, settings(32 * MiB, pipelining::parallel, 1000), 1, 4);
}
