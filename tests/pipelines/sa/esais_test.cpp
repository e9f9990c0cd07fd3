// eSAIS against libdivsufsort with 32-bit indices (the other widths: esais_widths_test.cpp):
// every standard text with a budget that sends the queue and the sorters to disk and the
// recursion through external DC3 levels, both pipelining modes, both queues; continuations, tiny
// bulks, the least budget, deep recursion; a too small budget and a too long text; a failing
// text source.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::sa_vector;

TEST_CASE("esais: tiny texts", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t n = 0; n <= 40; ++n) {
        for (unsigned sigma : {1u, 2u, 3u, 256u}) {
            INFO("n = " << n << ", sigma = " << sigma);
            check<std::uint32_t>(emflow_test::random_text(n, sigma, seed + n),
                                 settings(32 * MiB, pipelining::parallel, 0));
        }
    }
}

TEST_CASE("esais: standard texts", "[sa][esais]") {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        emflow_test::check_both_modes(nt.text, [&](pipelining mode) {
            return esais_sa<std::uint32_t>(nt.text, settings(32 * MiB, mode, 1000));
        });
    }
}

TEST_CASE("esais: on STXXL's sequential priority queue", "[sa][esais]") {
    emflow_test::configure_test_disks();
    auto s = settings(32 * MiB, pipelining::parallel, 1000);
    s.queue = queue_kind::stxxl;
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        check<std::uint32_t>(nt.text, s);
    }
}

TEST_CASE("esais: chains longer than their windows (continuations)", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t max_run : {1, 3, 70000}) {
        INFO("runs up to " << max_run);
        const auto t = staircase_text(max_run > 1000 ? 400000 : 100000, max_run, seed + max_run);
        check<std::uint32_t>(t, settings(32 * MiB, pipelining::parallel, 1000));
    }
}

TEST_CASE("esais: tiny bulks (chunked pops, rounds through the queue)", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t bulk : {1, 2, 7}) {
        INFO("bulk " << bulk);
        auto s = settings(32 * MiB, pipelining::traditional, 1000);
        s.bulk_items = bulk;
        for (const auto& t : {emflow_test::random_text(20000, 3, seed),
                              emflow_test::long_runs_text(30000, 5000, seed + 1),
                              staircase_text(20000, 4, seed + 2)})
            check<std::uint32_t>(t, s);
    }
}

TEST_CASE("esais: ranked seeds follow their bucket's placed suffixes", "[sa][esais]") {
    // "banana": L-type a(5) n(4) n(2) b(0), S-type a(3) a(1) (S* both), L-part starts n(4) n(2)
    esais_detail::bucket_counts n;
    n.l_type['a'] = n.l_type['b'] = 1;
    n.l_type['n'] = 2;
    n.s_type['a'] = n.sstar['a'] = 2;
    n.lstar['n'] = 2;
    const auto l = esais_detail::bucket_ranks::of(n, false);
    // L-pass: the end (rank 0), then a: 1 L, 2 seeds; b: 1 L; n: 2 L
    CHECK(l.first['a'] == 1);
    CHECK(l.seeds['a'] == 2);
    CHECK(l.first['b'] == 4);
    CHECK(l.seeds['b'] == 5);
    CHECK(l.first['n'] == 5);
    CHECK(l.placed['n'] == 2);
    CHECK(l.seeds['n'] == 7);
    // S-pass, buckets downwards: n: 2 seeds; b: none; a: 2 S
    const auto s = esais_detail::bucket_ranks::of(n, true);
    CHECK(s.first['n'] == 0);
    CHECK(s.seeds['n'] == 0);
    CHECK(s.first['b'] == 2);
    CHECK(s.first['a'] == 2);
    CHECK(s.placed['a'] == 2);
    CHECK(s.seeds['a'] == 4);
}

TEST_CASE("esais: small budget, queue and sorters spill", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    // 4 MiB texts: the queue (half of the least budget) holds a fraction of a pass's items;
    // under the sanitizers (several times slower) 1 MiB texts: the sorters still spill
#if defined(__SANITIZE_ADDRESS__)
    const std::size_t n = MiB;
#else
    const std::size_t n = 4 * MiB;
#endif
    const auto least = esais_detail::minimum_budget(pipelining::parallel);
    for (const auto& t :
         {emflow_test::random_text(n, 4, seed), emflow_test::random_text(n, 256, seed + 1)})
        check<std::uint32_t>(t, settings(least, pipelining::parallel));
}

TEST_CASE("esais: deep recursion", "[sa][esais]") {
    emflow_test::configure_test_disks();
    // the reduced text through external DC3 levels down to 64 symbols
    check<std::uint32_t>(emflow_test::fibonacci_text(200000),
                         settings(32 * MiB, pipelining::parallel, 64));
    check<std::uint32_t>(emflow_test::period_doubling_text(200000),
                         settings(32 * MiB, pipelining::traditional, 64));
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
    sa_config cfg;
    cfg.memory_bytes = 4 * MiB;
    try {
        esais<std::uint32_t>(open, t.size(), out, cfg);
        FAIL("no config_error");
    } catch (const config_error& e) {
        const std::string minimum =
            std::to_string(esais_detail::minimum_budget(pipelining::parallel));
        CHECK(std::string(e.what()).find(minimum) != std::string::npos);
    }
    cfg.memory_bytes = 64 * MiB;
    CHECK_THROWS_AS(esais<std::uint32_t>(open, std::uint64_t(1) << 32, out, cfg),
                    std::invalid_argument);
    CHECK(opened == 0);
}

TEST_CASE("esais: an exception from the text source reaches the caller", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const std::uint64_t n = 300000;
    auto open = [&] {
        return generate(n, [k = std::uint64_t(0)]() mutable {
            if (++k == 200000) throw std::runtime_error("text source failed");
            return std::uint8_t(k % 7);
        });
    };
    sa_vector<std::uint32_t> out;
    CHECK_THROWS_WITH(
        esais_detail::run<std::uint32_t>(open, n, out, settings(32 * MiB, pipelining::traditional)),
        "text source failed");
}
