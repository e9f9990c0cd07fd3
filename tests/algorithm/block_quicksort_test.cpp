// SPDX-License-Identifier: BSL-1.0
// Block quicksort (emflow/algorithm/block_quicksort.hpp) and the PPQ's parallel_sort built on it:
// results equal std::sort's on random inputs of every small size and on large ones of every key
// pattern; its building blocks (insertion sort, heap sort fallback, partition at every depth
// limit) separately; a 24-byte item keeps its payload; a throwing comparator reaches the caller
// and leaves the range a permutation of its items, sequentially and in parallel.
#include <catch2/catch.hpp>
#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "test_env.hpp"
#include "throwing_greater.hpp"

namespace {

namespace bq = emflow::algorithm::detail;
using keys = std::vector<std::uint64_t>;

const char* const patterns[] = {"random",    "ascending",  "descending", "few-distinct",
                                "all-equal", "organ-pipe", "sawtooth",   "random-small-range"};

keys make_keys(const std::string& pattern, std::size_t n, std::mt19937_64& rng) {
    keys v(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (pattern == "random")
            v[i] = rng();
        else if (pattern == "ascending")
            v[i] = i;
        else if (pattern == "descending")
            v[i] = n - i;
        else if (pattern == "few-distinct")
            v[i] = rng() % 4;
        else if (pattern == "all-equal")
            v[i] = 7;
        else if (pattern == "organ-pipe")
            v[i] = i < n / 2 ? i : n - i;
        else if (pattern == "sawtooth")
            v[i] = i % 97;
        else
            v[i] = rng() % (n / 2 + 1);
    }
    return v;
}

//! Sorts a copy with block_quicksort and with std::sort and requires equal results.
template <class Less = std::less<>>
void check_against_std(const keys& input, Less less = Less()) {
    keys mine = input, theirs = input;
    emflow::algorithm::block_quicksort(mine.data(), mine.data() + mine.size(), less);
    std::sort(theirs.begin(), theirs.end(), less);
    REQUIRE(mine == theirs);
}

//! The sorted multiset of v: equal for two ranges iff they are permutations of each other.
keys multiset_of(keys v) {
    std::sort(v.begin(), v.end());
    return v;
}

//! Orders like emflow_test::throwing_greater and counts comparisons.
struct counting_greater {
    std::size_t* count;
    bool operator()(std::uint64_t a, std::uint64_t b) const {
        ++*count;
        return a > b;
    }
};

}  // namespace

TEST_CASE("block_quicksort equals std::sort on random inputs of every size up to 600") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n = 0; n <= 600; ++n) {
        check_against_std(make_keys("random", n, rng));
        check_against_std(make_keys("few-distinct", n, rng));
    }
}

TEST_CASE("block_quicksort equals std::sort on large inputs of every key pattern") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (const char* pattern : patterns)
        for (std::size_t n : {1000u, 4097u, 65536u, 300001u}) {
            INFO(pattern << " n=" << n);
            check_against_std(make_keys(pattern, n, rng));
            check_against_std(make_keys(pattern, n, rng), std::greater<>());
        }
}

TEST_CASE("block_quicksort with a custom comparator on a 24-byte item keeps every payload") {
    struct item {
        std::uint64_t key;
        std::uint64_t payload[2];
    };
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {0u, 1u, 2u, 3u, 100u, 5000u, 200000u}) {
        std::vector<item> v(n);
        for (std::size_t i = 0; i < n; ++i) {
            v[i].key = rng() % (n + 1);  // duplicates
            v[i].payload[0] = i;
            v[i].payload[1] = ~v[i].key;
        }
        // pop order of a min-queue, as the PPQ sorts its runs: smaller keys first
        emflow::algorithm::pop_order<std::function<bool(const item&, const item&)>> order{
            [](const item& a, const item& b) { return a.key > b.key; }};
        emflow::algorithm::block_quicksort(v.data(), v.data() + n, order);
        std::vector<std::uint64_t> seen(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (i) REQUIRE(v[i - 1].key <= v[i].key);
            REQUIRE(v[i].payload[1] == ~v[i].key);
            REQUIRE(v[i].payload[0] < n);
            ++seen[v[i].payload[0]];  // every original item exactly once
        }
        REQUIRE(std::count(seen.begin(), seen.end(), 1u) == std::ptrdiff_t(n));
    }
}

TEST_CASE("block_quicksort building blocks: insertion sort, heap sort, every depth limit") {
    std::mt19937_64 rng(emflow_test::test_seed());
    std::less<> less;
    for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 64u, 1000u}) {
        for (const char* pattern : patterns) {
            INFO(pattern << " n=" << n);
            keys v = make_keys(pattern, n, rng), expected = multiset_of(v);
            keys a = v;
            bq::insertion_sort(a.data(), a.data() + n, less);
            REQUIRE(a == expected);
            a = v;
            bq::heap_sort(a.data(), a.data() + n, less);
            REQUIRE(a == expected);
            // a small depth limit mixes partitions with the heap sort fallback
            for (int depth = 0; depth <= 4; ++depth) {
                a = v;
                bq::sort_loop(a.data(), a.data() + n, less, depth, false);
                REQUIRE(a == expected);
            }
        }
    }
}

TEST_CASE("block_quicksort partition splits around the pivot for every small size") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n = 1; n <= 700; ++n) {
        keys v = make_keys(n % 2 ? "random" : "random-small-range", n, rng);
        const keys expected = multiset_of(v);
        const std::uint64_t pivot = v[0];
        std::uint64_t* p =
            bq::partition(v.data(), v.data() + n, [&](std::uint64_t x) { return x < pivot; });
        INFO("n=" << n);
        REQUIRE(*p == pivot);
        for (auto* q = v.data(); q < p; ++q) REQUIRE(*q < pivot);
        for (auto* q = p + 1; q < v.data() + n; ++q) REQUIRE(*q >= pivot);
        REQUIRE(multiset_of(v) == expected);
    }
}

TEST_CASE("block_quicksort with a throwing comparator propagates and keeps a permutation") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {2u, 30u, 500u, 20000u}) {
        for (const char* pattern : {"random", "few-distinct", "descending"}) {
            const keys input = make_keys(pattern, n, rng);
            std::size_t total = 0;
            keys counted = input;
            emflow::algorithm::block_quicksort(counted.data(), counted.data() + n,
                                               counting_greater{&total});
            const keys expected = multiset_of(input);
            for (int trial = 0; trial < 40; ++trial) {
                const std::int64_t when = std::int64_t(rng() % total) + 1;
                INFO(pattern << " n=" << n << " throw at comparison " << when << " of " << total);
                emflow_test::throwing_greater cmp{
                    std::make_shared<std::atomic<std::int64_t>>(when)};
                keys v = input;
                REQUIRE_THROWS_WITH(emflow::algorithm::block_quicksort(v.data(), v.data() + n, cmp),
                                    "comparator failed");
                REQUIRE(multiset_of(v) == expected);
            }
        }
    }
}

TEST_CASE("parallel_block_quicksort equals std::sort and propagates a throwing comparator") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (int threads : {1, 2, 4}) {
        tbb::task_arena arena(threads);
        for (const char* pattern : patterns) {
            for (std::size_t n : {0u, 1u, 5000u, 400000u}) {
                INFO(pattern << " n=" << n << " threads=" << threads);
                keys v = make_keys(pattern, n, rng), expected = v;
                std::sort(expected.begin(), expected.end());
                arena.execute([&] {
                    emflow::algorithm::parallel_block_quicksort(v.data(), v.data() + n,
                                                                std::less<>(), unsigned(threads));
                });
                REQUIRE(v == expected);
            }
        }
        const keys input = make_keys("random", 400000, rng), expected = multiset_of(input);
        for (std::int64_t when : {1, 1000, 500000, 3000000}) {
            emflow_test::throwing_greater cmp{std::make_shared<std::atomic<std::int64_t>>(when)};
            keys v = input;
            REQUIRE_THROWS_WITH(arena.execute([&] {
                emflow::algorithm::parallel_block_quicksort(v.data(), v.data() + v.size(), cmp,
                                                            unsigned(threads));
            }),
                                "comparator failed");
            REQUIRE(multiset_of(v) == expected);
        }
    }
}

TEST_CASE("ppq parallel_sort sorts presorted, reversed and random runs with 1 and 2 threads") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (unsigned threads : {1u, 2u}) {
        emflow::algorithm::workers w(threads);
        emflow::algorithm::pop_order<std::greater<>> order{};  // min-queue: ascending keys
        for (const char* pattern : patterns)
            for (std::size_t n : {0u, 3u, 70000u, 300000u}) {
                INFO(pattern << " n=" << n << " threads=" << threads);
                keys v = make_keys(pattern, n, rng), expected = multiset_of(v);
                emflow::algorithm::parallel_sort(v.data(), v.data() + n, order, w);
                REQUIRE(v == expected);
            }
    }
}
