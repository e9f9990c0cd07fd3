// SPDX-License-Identifier: BSL-1.0
// eSAIS with 40- and 64-bit indices (a translation unit of its own: the widths compile beside
// the 32-bit tests; the emflow-sa tool tests run every width too): the standard texts through
// external levels with 40-bit indices, deep recursion, and 64-bit output into a push node; the
// LCP array with both widths.
#include <catch2/catch.hpp>

#include "esais_test_support.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;

TEST_CASE("esais: 40-bit indices, standard texts and deep recursion", "[sa][esais]") {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        check<emflow::uint40>(nt.text, settings(32 * MiB, pipelining::parallel, 1000));
    }
    check<emflow::uint40>(emflow_test::period_doubling_text(200000),
                          settings(32 * MiB, pipelining::traditional, 64));
}

TEST_CASE("esais: 64-bit indices into a push node", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(50000, 3, emflow_test::test_seed());
    std::vector<std::uint64_t> got;
    bool stopped = false;
    emflow::pipelines::sa::detail::esais::run<std::uint64_t>(
        [&] { return streamify(t); }, t.size(),
        emflow_test::collect_sink<std::uint64_t>{&got, &stopped},
        settings(32 * MiB, pipelining::parallel));
    CHECK(stopped);
    emflow_test::check_reference(t, got);
}

TEST_CASE("esais lcp: 40- and 64-bit indices", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        check_lcp<emflow::uint40>(nt.text, settings(32 * MiB, pipelining::parallel, 1000));
    }
    check_lcp<emflow::uint40>(emflow_test::fibonacci_text(200000),
                              settings(32 * MiB, pipelining::traditional, 64));
    check_lcp<std::uint64_t>(emflow_test::long_runs_text(200000, 70000, emflow_test::test_seed()),
                             settings(32 * MiB, pipelining::parallel, 1000));
}
