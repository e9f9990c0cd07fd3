// Test texts for suffix-array constructions and the reference they are checked against
// (libdivsufsort, in memory): the edge cases of the suffix-sorting issues (every byte value,
// all-equal text, runs longer than 65 535, Fibonacci and period-doubling words for deep
// recursion, the empty text, one and two bytes) and random texts over small and full alphabets.
#pragma once

#include <divsufsort64.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace emflow_test
