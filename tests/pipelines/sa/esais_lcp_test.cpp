// eSAIS's LCP array against Kasai's with 32-bit indices (the other widths:
// esais_widths_test.cpp): every standard text in both pipelining modes, tiny texts, chains with
// continuations, tiny bulks, a budget that sends the queue and the sorters to disk, deep
// recursion; the LCP checker accepts the output.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/lcp_checker.hpp>

#include <cstdint>
#include <vector>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;

TEST_CASE("esais lcp: tiny texts", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t n = 0; n <= 32; ++n) {
        for (unsigned sigma : {1u, 2u, 3u}) {
            INFO("n = " << n << ", sigma = " << sigma);
            check_lcp<std::uint32_t>(emflow_test::random_text(n, sigma, seed + n),
                                     settings(32 * MiB, pipelining::parallel, 0));
        }
    }
}

TEST_CASE("esais lcp: standard texts", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            INFO(nt.name << " (" << nt.text.size() << " bytes), "
                         << (mode == pipelining::parallel ? "parallel" : "traditional"));
            check_lcp<std::uint32_t>(nt.text, settings(32 * MiB, mode, 1000));
        }
    }
}

TEST_CASE("esais lcp: on STXXL's sequential priority queue", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    auto s = settings(32 * MiB, pipelining::parallel, 1000);
    s.queue = queue_kind::stxxl;
    const auto seed = emflow_test::test_seed();
    check_lcp<std::uint32_t>(emflow_test::random_text(100000, 4, seed), s);
    check_lcp<std::uint32_t>(emflow_test::long_runs_text(200000, 70000, seed + 1), s);
}

TEST_CASE("esais lcp: chains longer than their windows (continuations)", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t max_run : {1, 3, 70000}) {
        INFO("runs up to " << max_run);
        const auto t = staircase_text(max_run > 1000 ? 400000 : 100000, max_run, seed + max_run);
        check_lcp<std::uint32_t>(t, settings(32 * MiB, pipelining::parallel, 1000));
    }
}

TEST_CASE("esais lcp: tiny bulks (chunked pops, rounds through the queue)", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t bulk : {1, 2, 7}) {
        INFO("bulk " << bulk);
        auto s = settings(32 * MiB, pipelining::traditional, 1000);
        s.bulk_items = bulk;
        for (const auto& t : {emflow_test::random_text(20000, 3, seed),
                              emflow_test::long_runs_text(30000, 5000, seed + 1),
                              staircase_text(20000, 4, seed + 2)})
            check_lcp<std::uint32_t>(t, s);
    }
}

TEST_CASE("esais lcp: small budget, queue and sorters spill", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    // as in esais_test.cpp: the queue and the sorters (of the S* LCPs too) spill
#if defined(__SANITIZE_ADDRESS__)
    const std::size_t n = MiB;
#else
    const std::size_t n = 4 * MiB;
#endif
    const auto least = esais_detail::minimum_budget(pipelining::parallel);
    check_lcp<std::uint32_t>(emflow_test::random_text(n, 4, seed),
                             settings(least, pipelining::parallel));
}

TEST_CASE("esais lcp: deep recursion, long common prefixes", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    // the reduced text through external DC3 levels down to 64 symbols; LCPs up to half the text
    check_lcp<std::uint32_t>(emflow_test::fibonacci_text(200000),
                             settings(32 * MiB, pipelining::parallel, 64));
    check_lcp<std::uint32_t>(emflow_test::period_doubling_text(200000),
                             settings(32 * MiB, pipelining::traditional, 64));
}

TEST_CASE("esais lcp: the public API, push-node outputs, the LCP checker accepts",
          "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(50000, 3, emflow_test::test_seed());
    sa_config cfg;
    cfg.memory_bytes = 32 * MiB;
    emflow_test::sa_vector<std::uint32_t> sa, lcp;
    esais<std::uint32_t>([&] { return streamify(t); }, t.size(), sa, lcp, cfg);
    REQUIRE(lcp.size() == t.size());
    const check_result r = check_lcp_array<std::uint32_t>(
        [&] { return streamify(t); }, t.size(), [&] { return streamify(sa); },
        [&] { return streamify(lcp); }, lcp.size(), cfg);
    CHECK(r.ok);
    // a push node for each output gets the same arrays
    std::vector<std::uint64_t> sa_pushed, lcp_pushed;
    bool sa_stopped = false, lcp_stopped = false;
    emflow_test::collect_sink<std::uint32_t> sa_sink{&sa_pushed, &sa_stopped};
    emflow_test::collect_sink<std::uint32_t> lcp_sink{&lcp_pushed, &lcp_stopped};
    esais<std::uint32_t>([&] { return streamify(t); }, t.size(), sa_sink, lcp_sink, cfg);
    CHECK((sa_stopped && lcp_stopped));
    const auto as_vector = [](const emflow_test::sa_vector<std::uint32_t>& v) {
        std::vector<std::uint64_t> x;
        for (emflow_test::sa_vector<std::uint32_t>::bufreader_type r(v); !r.empty(); ++r)
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
    CHECK_FALSE(check_lcp_array<std::uint32_t>([&] { return streamify(t); }, t.size(),
                                               [&] { return streamify(sa); },
                                               [&] { return streamify(lcp); }, lcp.size(), cfg)
                    .ok);
}
