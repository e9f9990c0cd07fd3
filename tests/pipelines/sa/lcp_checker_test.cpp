// The external LCP-array checker against Kasai's LCP array: accepts every correct array (all index
// widths, a budget that forces its sorters to disk) and rejects every mutation: one entry one too
// large or one too small, LCP[0] not 0, a length beyond the shorter suffix, two entries swapped,
// the array truncated.
#include <catch2/catch.hpp>

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

template <class Index>
check_result check(const text_bytes& t, const std::vector<std::uint64_t>& sa,
                   const std::vector<std::uint64_t>& lcp,
                   std::size_t memory = 64 * emflow_test::MiB) {
    const auto s = emflow_test::as_index<Index>(sa), l = emflow_test::as_index<Index>(lcp);
    return check_lcp_array<Index>([&] { return streamify(t); }, t.size(),
                                  [&] { return streamify(s); }, [&] { return streamify(l); },
                                  l.size(), emflow_test::checker_config(memory));
}

}  // namespace

TEMPLATE_TEST_CASE("lcp checker accepts correct LCP arrays", "[sa][lcp_checker]", std::uint32_t,
                   emflow::uint40, std::uint64_t) {
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
