// eSAIS's LCP array against Kasai's with 32-bit indices (the other widths:
// esais_widths_test.cpp): every standard text in both pipelining modes, tiny texts, chains with
// continuations, tiny bulks, a budget that sends the queue and the sorters to disk, deep
// recursion; the LCP checker accepts the output.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/lcp_checker.hpp>

#include <cstdint>
#include <random>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;

TEST_CASE("esais lcp: tiny texts", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    for (std::size_t n = 0; n <= 40; ++n) {
        for (unsigned sigma : {1u, 2u, 3u, 256u}) {
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
