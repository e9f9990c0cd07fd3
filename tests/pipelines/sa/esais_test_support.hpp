// What the eSAIS tests share: settings, the construction into a vector, the comparison with
// libdivsufsort (and of the LCP array with Kasai's).
#pragma once

#include <emflow/pipelines/sa/esais.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

namespace {

using emflow_test::MiB;
using emflow_test::text_bytes;

//! eSAIS's settings: budget, mode, the longest text a DC3 level of the recursion runs in RAM.
emflow::pipelines::sa::esais_detail::esais_settings settings(
    std::size_t memory, emflow::pipelines::sa::pipelining mode,
    std::uint64_t in_memory_symbols = ~std::uint64_t(0)) {
    return emflow_test::sa_settings<emflow::pipelines::sa::esais_detail::esais_settings>(
        memory, mode, in_memory_symbols);
}

//! The suffix array of t by eSAIS with settings s, as 64-bit values.
template <class Index>
std::vector<std::uint64_t> esais_sa(const text_bytes& t,
                                    const emflow::pipelines::sa::esais_detail::esais_settings& s) {
    return emflow_test::sa_of<Index>([&](auto& out) {
        emflow::pipelines::sa::esais_detail::run<Index>([&] { return emflow::streamify(t); },
                                                        t.size(), out, s);
    });
}

//! Runs of random lengths (1..max_run) stepping down through all 256 bytes, then up: parts of
//! 256 runs, far more than a chain's window holds (every chain needs continuations).
inline text_bytes staircase_text(std::size_t n, std::size_t max_run, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    text_bytes t;
    while (t.size() < n) {
        for (int c = 255; c >= 0 && t.size() < n; --c)
            t.insert(t.end(), std::min<std::size_t>(1 + rng() % max_run, n - t.size()),
                     std::uint8_t(c));
        for (int c = 0; c < 256 && t.size() < n; c += 1 + int(rng() % 3))
            t.insert(t.end(), std::min<std::size_t>(1 + rng() % max_run, n - t.size()),
                     std::uint8_t(c));
    }
    return t;
}

//! eSAIS with settings s gives the suffix array of t.
template <class Index>
void check(const text_bytes& t, const emflow::pipelines::sa::esais_detail::esais_settings& s) {
    emflow_test::check_reference(t, esais_sa<Index>(t, s));
}

//! eSAIS with settings s gives the suffix array of t and its LCP array (Kasai's).
template <class Index>
void check_lcp(const text_bytes& t, const emflow::pipelines::sa::esais_detail::esais_settings& s) {
    emflow_test::sa_vector<Index> lcp;
    const auto sa = emflow_test::sa_of<Index>([&](auto& out) {
        emflow::pipelines::sa::esais_detail::run<Index>([&] { return emflow::streamify(t); },
                                                        t.size(), out, s, &lcp);
    });
    emflow_test::check_reference(t, sa);
    const auto got = emflow_test::sa_of<Index>([&](auto& out) { out.swap(lcp); });
    const auto ref = emflow_test::reference_lcp(t, emflow_test::reference_sa(t));
    REQUIRE(got.size() == ref.size());
    CHECK(emflow_test::first_mismatch(got, ref) == std::string::npos);
}

}  // namespace
