// Suffix sorting when RAM runs out: a failed allocation at any point of DC3 (both pipelining
// modes), prefix doubling and eSAIS (with its LCP array), all through external levels, reaches
// the caller as std::bad_alloc, leaves no temp file, and the next construction is correct. A
// binary of its own (failing_new.hpp).
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/dc3.hpp>
#include <emflow/pipelines/sa/doubling.hpp>
#include <emflow/pipelines/sa/esais.hpp>

#include <cstdint>
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
    return emflow_test::sa_settings<Settings>(24 * MiB, mode, 1000);
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
            const auto s = external<dc3_detail::dc3_settings>(mode);
            auto run = [&] { dc3_detail::run<std::uint32_t>(open, t.size(), out, s); };
            emflow_test::check_failures_reach_the_caller(run);
            run();
            emflow_test::check_reference(t, std::vector<std::uint64_t>(out.begin(), out.end()));
        }
        {
            INFO("prefix doubling");
            sa_config cfg;
            cfg.memory_bytes = 24 * MiB;
            auto run = [&] { prefix_doubling<std::uint32_t>(open, t.size(), out, cfg, 2); };
            emflow_test::check_failures_reach_the_caller(run);
            run();
            emflow_test::check_reference(t, std::vector<std::uint64_t>(out.begin(), out.end()));
        }
        {
            INFO("eSAIS with the LCP array");
            const auto s = external<esais_detail::esais_settings>(pipelining::parallel);
            sa_vector<std::uint32_t> lcp;
            auto run = [&] { esais_detail::run<std::uint32_t>(open, t.size(), out, s, &lcp); };
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
