// eSAIS against libdivsufsort: every standard text with a budget that sends the queue and the
// sorters to disk and the recursion through external DC3 levels, all three index types, both
// pipelining modes; deep recursion; output into a push node; a too small budget and a too long
// text; a failing text source.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/esais.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::text_bytes;

namespace {

template <class Index>
using sa_vector = typename stxxl::VECTOR_GENERATOR<Index, 2, 2, 256 * 1024>::result;

constexpr std::size_t MiB = std::size_t(1) << 20;

esais_detail::esais_settings settings(std::size_t memory, pipelining mode,
                                      std::uint64_t in_memory_symbols = ~std::uint64_t(0)) {
    esais_detail::esais_settings s;
    s.memory_bytes = memory;
    s.mode = mode;
    s.in_memory_symbols = in_memory_symbols;
    return s;
}

//! The suffix array of t by eSAIS with settings s, as 64-bit values.
template <class Index>
std::vector<std::uint64_t> esais_sa(const text_bytes& t, const esais_detail::esais_settings& s) {
    sa_vector<Index> out;
    esais_detail::run<Index>([&] { return streamify(t); }, t.size(), out, s);
    std::vector<std::uint64_t> v;
    v.reserve(out.size());
    for (typename sa_vector<Index>::bufreader_type r(out); !r.empty(); ++r)
        v.push_back(std::uint64_t(*r));
    return v;
}

//! Index of the first difference of a and b, or npos.
std::size_t first_mismatch(const std::vector<std::uint64_t>& a,
                           const std::vector<std::uint64_t>& b) {
    auto d = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    return d.first == a.end() && d.second == b.end() ? std::string::npos
                                                     : std::size_t(d.first - a.begin());
}

template <class Index>
void check(const text_bytes& t, const esais_detail::esais_settings& s) {
    const auto ref = emflow_test::reference_sa(t);
    auto got = esais_sa<Index>(t, s);
    REQUIRE(got.size() == ref.size());
    CHECK(first_mismatch(got, ref) == std::string::npos);
}

}  // namespace

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

TEMPLATE_TEST_CASE("esais: standard texts", "[sa][esais]", std::uint32_t, emflow::uint40,
                   std::uint64_t) {
    emflow_test::configure_test_disks();
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(nt.name << " (" << nt.text.size() << " bytes)");
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            INFO((mode == pipelining::parallel ? "parallel" : "traditional"));
            check<TestType>(nt.text, settings(32 * MiB, mode, 1000));
        }
    }
}
