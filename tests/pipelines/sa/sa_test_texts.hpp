// SPDX-License-Identifier: BSL-1.0
// Test texts for suffix-array constructions and the reference they are checked against
// (libdivsufsort, in memory): the edge cases of the suffix-sorting issues (every byte value,
// all-equal text, runs longer than 65 535, Fibonacci and period-doubling words for deep
// recursion, the empty text, one and two bytes) and random texts over small and full alphabets;
// and the harness the construction tests share (settings, output into a vector or a push node,
// comparison with the reference in both pipelining modes), Kasai's LCP array and the checkers'
// settings.
#pragma once

#include <divsufsort64.h>
#include <catch2/catch.hpp>
#include <emflow/flow_runtime.hpp>
#include <emflow/pipelines/sa/build.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_env.hpp"

namespace emflow_test {

using text_bytes = std::vector<std::uint8_t>;

//! n random bytes over an alphabet of sigma symbols spread over 0x00..0xFF (both ends included
//! for sigma >= 2).
inline text_bytes random_text(std::size_t n, unsigned sigma, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<unsigned> sym(0, sigma - 1);
    text_bytes t(n);
    for (auto& c : t) c = sigma <= 1 ? 0 : std::uint8_t(sym(rng) * 255 / (sigma - 1));
    return t;
}

//! n copies of c.
inline text_bytes run_text(std::size_t n, std::uint8_t c) { return text_bytes(n, c); }

//! The Fibonacci word's first n letters over {a, b}: maximal repetitiveness for its length.
inline text_bytes fibonacci_text(std::size_t n) {
    std::string a = "a", b = "ab";
    while (b.size() < n) a = std::exchange(b, b + a);
    return text_bytes(b.begin(), b.begin() + std::ptrdiff_t(n));
}

//! The period-doubling word's first n letters (a -> ab, b -> aa).
inline text_bytes period_doubling_text(std::size_t n) {
    std::string w = "a";
    while (w.size() < n) {
        std::string next;
        for (char c : w) next += c == 'a' ? "ab" : "aa";
        w = std::move(next);
    }
    return text_bytes(w.begin(), w.begin() + std::ptrdiff_t(n));
}

//! Runs of random lengths (up to max_run) of random bytes, some longer than 65 535.
inline text_bytes long_runs_text(std::size_t n, std::size_t max_run, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    text_bytes t;
    while (t.size() < n) {
        std::size_t len = std::min<std::size_t>(1 + rng() % max_run, n - t.size());
        t.insert(t.end(), len, std::uint8_t(rng()));
    }
    return t;
}

//! The suffix array of t by libdivsufsort.
inline std::vector<std::uint64_t> reference_sa(const text_bytes& t) {
    std::vector<saidx64_t> sa(t.size());
    if (!t.empty() && divsufsort64(t.data(), sa.data(), saidx64_t(t.size())) != 0)
        throw std::runtime_error("divsufsort64 failed");
    return std::vector<std::uint64_t>(sa.begin(), sa.end());
}

//! The LCP array of t with suffix array sa, by Kasai et al.'s algorithm (in memory).
inline std::vector<std::uint64_t> reference_lcp(const text_bytes& t,
                                                const std::vector<std::uint64_t>& sa) {
    const std::size_t n = t.size();
    std::vector<std::uint64_t> rank(n), lcp(n, 0);
    for (std::size_t k = 0; k < n; ++k) rank[sa[k]] = k;
    std::size_t h = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (rank[i] == 0) {
            h = 0;
            continue;
        }
        const std::size_t j = sa[rank[i] - 1];
        while (i + h < n && j + h < n && t[i + h] == t[j + h]) ++h;
        lcp[rank[i]] = h;
        if (h > 0) --h;
    }
    return lcp;
}

//! A named test text.
struct named_text {
    std::string name;  //!< for the test's output
    text_bytes text;   //!< the bytes
};

//! The edge cases and random texts every construction is tested on; scale multiplies the
//! lengths of the large ones (1: about 100 KiB each).
inline std::vector<named_text> standard_texts(std::uint64_t seed, std::size_t scale = 1) {
    const std::size_t big = 100000 * scale;
    std::vector<named_text> v;
    v.push_back({"empty", {}});
    v.push_back({"one byte", {0x42}});
    v.push_back({"one zero byte", {0x00}});
    v.push_back({"two bytes", {0xFF, 0x00}});
    v.push_back({"two equal bytes", {0x00, 0x00}});
    v.push_back({"abracadabra", text_bytes{'a', 'b', 'r', 'a', 'c', 'a', 'd', 'a', 'b', 'r', 'a'}});
    v.push_back({"random sigma 2", random_text(big, 2, seed)});
    v.push_back({"random sigma 4", random_text(big, 4, seed + 1)});
    v.push_back({"random sigma 256", random_text(big, 256, seed + 2)});
    v.push_back({"all 0x00", run_text(big, 0x00)});
    v.push_back({"all 0xFF", run_text(big, 0xFF)});
    v.push_back({"runs over 65535", long_runs_text(3 * 70000 * scale, 140000, seed + 3)});
    v.push_back({"fibonacci", fibonacci_text(big)});
    v.push_back({"period doubling", period_doubling_text(big)});
    return v;
}

//! Whether emflow::sa holds the constructions for 40- and 64-bit indices: not under the
//! sanitizers (pipelines/CMakeLists.txt), where the tests run their 32-bit cases only.
inline constexpr bool wide_indices = EMFLOW_SA_WIDE_INDICES != 0;
//! The index types the width-generic tests run over (TEMPLATE_LIST_TEST_CASE).
using sa_indices =
    std::conditional_t<wide_indices, std::tuple<std::uint32_t, emflow::uint40, std::uint64_t>,
                       std::tuple<std::uint32_t>>;
//! emflow::uint40 and std::uint64_t where emflow::sa holds them; else std::uint32_t, so that
//! the cases that mix widths still run under the sanitizers.
using index40 = std::conditional_t<wide_indices, emflow::uint40, std::uint32_t>;
using index64 = std::conditional_t<wide_indices, std::uint64_t, std::uint32_t>;

//! One MiB.
inline constexpr std::size_t MiB = std::size_t(1) << 20;

//! A construction's internal settings (dc3_options, esais_options): budget, mode, and the
//! longest text a level runs in RAM.
template <class Settings>
Settings make_sa_options(std::size_t memory, emflow::pipelines::sa::pipelining mode,
                         std::uint64_t in_memory_symbols = ~std::uint64_t(0)) {
    Settings s;
    s.memory_bytes = memory;
    s.mode = mode;
    s.in_memory_symbols = in_memory_symbols;
    return s;
}

//! A checker's settings: a budget of memory bytes, parallel pipelining.
inline emflow::pipelines::sa::sa_options checker_options(std::size_t memory = 64 * MiB) {
    emflow::pipelines::sa::sa_options cfg;
    cfg.memory_bytes = memory;
    cfg.mode = emflow::pipelines::sa::pipelining::parallel;
    return cfg;
}

//! The values of v as Index (a checker's input in RAM).
template <class Index>
std::vector<Index> as_index(const std::vector<std::uint64_t>& v) {
    return std::vector<Index>(v.begin(), v.end());
}

//! What construct(out) writes into an sa_vector<Index>, as 64-bit values.
template <class Index, class Construct>
std::vector<std::uint64_t> sa_of(Construct&& construct) {
    emflow::pipelines::sa::sa_vector<Index> out;
    construct(out);
    std::vector<std::uint64_t> v;
    v.reserve(out.size());
    for (typename emflow::pipelines::sa::sa_vector<Index>::bufreader_type r(out); !r.empty(); ++r)
        v.push_back(std::uint64_t(*r));
    return v;
}

//! Index of the first difference of a and b, or npos (so that a failure prints one number).
inline std::size_t first_mismatch(const std::vector<std::uint64_t>& a,
                                  const std::vector<std::uint64_t>& b) {
    auto d = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    return d.first == a.end() && d.second == b.end() ? std::string::npos
                                                     : std::size_t(d.first - a.begin());
}

//! got is the suffix array of t.
inline void check_reference(const text_bytes& t, const std::vector<std::uint64_t>& got) {
    const auto ref = reference_sa(t);
    REQUIRE(got.size() == ref.size());
    CHECK(first_mismatch(got, ref) == std::string::npos);
}

//! build(mode) gives the suffix array of t in both pipelining modes.
template <class Build>
void check_both_modes(const text_bytes& t, Build&& build) {
    using emflow::pipelines::sa::pipelining;
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        INFO((mode == pipelining::parallel ? "parallel" : "traditional"));
        check_reference(t, build(mode));
    }
}

//! A push node collecting into a std::vector (a construction's push-node output).
template <class Index>
struct collect_sink {
    using value_type = Index;         //!< element type
    std::vector<std::uint64_t>* out;  //!< the collected values
    bool* stopped;                    //!< set by push_stop

    //! (nothing to open)
    void start(emflow::run_context&) {}
    //! Collects x.
    void push(const Index& x) { out->push_back(x); }
    //! Collects n values.
    void push_batch(const Index* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) push(p[i]);
    }
    //! Marks the end.
    void push_stop() { *stopped = true; }
};

}  // namespace emflow_test
