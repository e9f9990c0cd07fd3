// SPDX-License-Identifier: BSL-1.0
// The in-memory base case (SA-IS on integer alphabets, dc3/in_memory.hpp) against a prefix-doubling
// reference: random texts over small and large alphabets (up to one name per symbol, as a DC3
// level's reduced text can have), all-equal, Fibonacci and period-doubling words (deep
// recursion), lengths 0 to 100 000, 32- and 64-bit symbols.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/detail/dc3/in_memory.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "test_env.hpp"

using emflow::pipelines::sa::detail::dc3::suffix_array_in_memory;

namespace {

//! The suffix array of s by prefix doubling with std::sort (a proper prefix sorts first).
std::vector<std::uint64_t> reference(const std::vector<std::uint64_t>& s) {
    const std::size_t n = s.size();
    if (n == 0) return {};
    std::vector<std::uint64_t> sa(n), rank(s), next(n);
    std::iota(sa.begin(), sa.end(), 0);
    for (std::size_t h = 1;; h *= 2) {
        auto key = [&](std::uint64_t i) {
            return std::make_pair(rank[i], i + h < n ? rank[i + h] + 1 : 0);
        };
        std::sort(sa.begin(), sa.end(), [&](auto a, auto b) { return key(a) < key(b); });
        next[sa[0]] = 0;
        for (std::size_t k = 1; k < n; ++k)
            next[sa[k]] = next[sa[k - 1]] + (key(sa[k - 1]) < key(sa[k]) ? 1 : 0);
        rank.swap(next);
        if (rank[sa[n - 1]] == n - 1 || h >= n) return sa;
    }
}

//! suffix_array_in_memory on s with symbols of type I equals the reference.
template <class I>
void check(const std::vector<std::uint64_t>& s, std::uint64_t sigma) {
    const std::vector<I> text(s.begin(), s.end());
    std::vector<I> sa(s.size(), I(7));
    suffix_array_in_memory(text.data(), text.size(), std::size_t(sigma), sa.data());
    const auto ref = reference(s);
    REQUIRE(std::vector<std::uint64_t>(sa.begin(), sa.end()) == ref);
}

void check_both(const std::vector<std::uint64_t>& s, std::uint64_t sigma) {
    check<std::uint32_t>(s, sigma);
    check<std::uint64_t>(s, sigma);
}

//! The Fibonacci word (1 -> 12, 2 -> 1) or the period-doubling word (1 -> 12, 2 -> 11) of
//! length n.
std::vector<std::uint64_t> word(bool fibonacci, std::size_t n) {
    std::vector<std::uint64_t> w{1};
    while (w.size() < n) {
        std::vector<std::uint64_t> v;
        for (auto c : w) {
            v.push_back(1);
            if (c == 1)
                v.push_back(2);
            else if (!fibonacci)
                v.push_back(1);
        }
        w.swap(v);
    }
    w.resize(n);
    return w;
}

}  // namespace

TEST_CASE("in-memory suffix array: random texts over small and large alphabets", "[sa][dc3]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    for (std::size_t n : {0, 1, 2, 3, 5, 17, 100, 1000, 4099, 100000})
        for (std::uint64_t sigma : {1, 2, 3, 4, 256}) {
            std::vector<std::uint64_t> s(n);
            for (auto& c : s) c = 1 + rng() % sigma;
            INFO("n " << n << ", sigma " << sigma);
            check_both(s, sigma);
        }
    for (std::size_t n : {2, 50, 3000}) {  // one symbol per position: names of a reduced text
        std::vector<std::uint64_t> s(n);
        std::iota(s.begin(), s.end(), 1);
        std::shuffle(s.begin(), s.end(), rng);
        INFO("a permutation of 1.." << n);
        check_both(s, n);
        for (auto& c : s) c = 1 + rng() % n;  // some repeated
        check_both(s, n);
    }
}

TEST_CASE("in-memory suffix array: repetitive texts recurse deeply", "[sa][dc3]") {
    for (std::size_t n : {1, 2, 7, 1000, 4096, 4097, 100000}) {
        INFO("n " << n);
        check_both(std::vector<std::uint64_t>(n, 5), 5);
        check_both(word(true, n), 2);
        check_both(word(false, n), 2);
    }
}
