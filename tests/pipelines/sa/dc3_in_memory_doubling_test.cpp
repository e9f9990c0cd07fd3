// SPDX-License-Identifier: BSL-1.0
// The in-memory base case's prefix doubling (dc3/in_memory_doubling.hpp) against SA-IS
// (dc3/in_memory.hpp, tested against a reference of its own): large alphabets, where it sorts,
// on one thread and on the arena's threads, with groups that cross its tasks' ranges and a group
// long enough to be sorted in parallel; small alphabets, where it must not start; and long
// repeats and work limits, where it gives up and leaves a text of ranks with the same suffix
// array.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/detail/dc3/in_memory.hpp>
#include <emflow/pipelines/sa/detail/dc3/in_memory_doubling.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "test_env.hpp"

using emflow::pipelines::sa::detail::dc3::suffix_array_by_doubling;
using emflow::pipelines::sa::detail::dc3::suffix_array_in_memory;
using text = std::vector<std::uint32_t>;

namespace {

text sais(const text& s, std::size_t sigma) {
    text sa(s.size());
    suffix_array_in_memory(s.data(), s.size(), sigma, sa.data());
    return sa;
}

//! Symbols 1..sigma of s.
std::size_t alphabet(const text& s) {
    return s.empty() ? 0 : *std::max_element(s.begin(), s.end());
}

//! Doubling sorts s (true, the suffix array in the pairs' low halves) or gives up (false, pairs
//! empty, s a text with the same suffix array, symbols 1..sigma): either way, the suffix array
//! it leads to is SA-IS's. Returns whether it sorted.
bool check(const text& s, bool parallel, std::uint64_t work_limit) {
    const text expected = sais(s, alphabet(s));
    text t = s;
    std::size_t sigma = alphabet(s);
    std::vector<std::uint64_t> pairs{42};
    const bool sorted = suffix_array_by_doubling(t, sigma, pairs, parallel, work_limit);
    if (sorted) {
        REQUIRE(pairs.size() == s.size());
        text sa(s.size());
        std::transform(pairs.begin(), pairs.end(), sa.begin(),
                       [](std::uint64_t p) { return std::uint32_t(p); });
        REQUIRE(sa == expected);
    } else {
        REQUIRE(pairs.empty());
        REQUIRE(t.size() == s.size());
        REQUIRE(alphabet(t) <= sigma);
        REQUIRE(std::all_of(t.begin(), t.end(), [](std::uint32_t c) { return c >= 1; }));
        REQUIRE(sais(t, sigma) == expected);
    }
    return sorted;
}

bool check_both(const text& s, std::uint64_t work_limit) {
    const bool sorted = check(s, false, work_limit);
    REQUIRE(check(s, true, work_limit) == sorted);
    return sorted;
}

}  // namespace

TEST_CASE("doubling: large alphabets are sorted, on one thread and in parallel", "[sa][dc3]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    // Several of its tasks' ranges (2^16 slots), groups of a few suffixes crossing them.
    for (std::size_t n : {2, 3, 10, 1000, 70000, 300000})
        for (std::size_t divisor : {1, 2, 4}) {
            const std::size_t sigma = std::max<std::size_t>(1, n / divisor);
            text s(n);
            for (auto& c : s) c = std::uint32_t(1 + rng() % sigma);
            INFO("n " << n << ", sigma " << sigma);
            // About 63% of the suffixes share their first symbol with another if sigma is n, 86%
            // if it is n / 2: doubling starts only below 75%.
            const bool sorted = check_both(s, 2 * n);
            if (n >= 1000) REQUIRE(sorted == (divisor == 1));
        }
    {
        // Half the suffixes in one group: sorted by the parallel sort in parallel mode.
        const std::size_t n = 300000;
        text s(n);
        for (std::size_t i = 0; i < n; ++i) s[i] = std::uint32_t(i % 2 == 0 ? 1 : 2 + i / 2);
        std::shuffle(s.begin() + 1, s.end(), rng);  // the group's members anywhere
        INFO("one group of " << n / 2);
        REQUIRE(check_both(s, 2 * n));
        REQUIRE_FALSE(check_both(s, 0));  // stopped after that group's sort: its ranks
    }
    {
        // A permutation: every suffix alone after the first symbol.
        text s(100000);
        std::iota(s.begin(), s.end(), 1);
        std::shuffle(s.begin(), s.end(), rng);
        REQUIRE(check_both(s, 0));
    }
}

TEST_CASE("doubling: does not start on small alphabets and tiny texts", "[sa][dc3]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    for (std::size_t n : {0, 1, 1000, 100000})
        for (std::size_t sigma : {1, 2, 4, 256}) {
            text s(n);
            for (auto& c : s) c = std::uint32_t(1 + rng() % sigma);
            if (n > 0) s[0] = std::uint32_t(sigma);
            INFO("n " << n << ", sigma " << sigma);
            text t = s;
            std::size_t alpha = sigma;
            std::vector<std::uint64_t> pairs;
            REQUIRE_FALSE(suffix_array_by_doubling(t, alpha, pairs, true, 2 * n));
            REQUIRE(t == s);  // untouched: SA-IS runs on the text itself
            REQUIRE(alpha == sigma);
            REQUIRE(pairs.empty());
        }
}

TEST_CASE("doubling: gives up on long repeats and at its work limit", "[sa][dc3]") {
    const std::uint64_t seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    // Half the text distinct symbols, the other half one block of distinct symbols twice: the
    // block's suffixes need log2(block) rounds over a quarter of the text each.
    const std::size_t block = 40000;
    text s;
    for (std::size_t i = 0; i < 2 * block; ++i) s.push_back(std::uint32_t(block + 1 + i));
    for (int copy = 0; copy < 2; ++copy)
        for (std::size_t i = 0; i < block; ++i) s.push_back(std::uint32_t(1 + i));
    std::shuffle(s.begin(), s.begin() + std::ptrdiff_t(2 * block), rng);
    REQUIRE_FALSE(check_both(s, s.size()));
    REQUIRE(check_both(s, 100 * s.size()));  // enough work: sorted
    // A random text that needs a second round, stopped after the first.
    text r(50000);
    for (auto& c : r) c = std::uint32_t(1 + rng() % r.size());
    REQUIRE_FALSE(check_both(r, 0));
    REQUIRE(check_both(r, 2 * r.size()));
}
