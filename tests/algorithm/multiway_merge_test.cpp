// SPDX-License-Identifier: BSL-1.0
// The PPQ's multiway merge (emflow/algorithm/parallel_algorithms.hpp, ppq/sequential_merge.hpp),
// which also merges the runs of every external sort: for 0 to 70 sequences (libstdc++'s kernels up
// to 4, cascades of one and two levels beyond), empty ones among them, with more items than one
// cascade pass takes, it writes the smallest items in order, advances each sequence past exactly
// the items it took, and reads no item outside the sequences (each lives in an allocation of its
// own size, so AddressSanitizer sees an over-read); sequentially, and cut into parts for two
// threads. A comparator that throws reaches the caller and leaves the sequences as they were.
#include <catch2/catch.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "test_env.hpp"
#include "throwing_greater.hpp"

namespace {

using key = std::uint64_t;
using emflow::algorithm::sequence;

//! Numbers of sequences: each kernel of libstdc++, and cascades of one and two levels.
const std::size_t sequence_counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 33, 64, 70};

//! k sorted sequences, each in an allocation of exactly its length.
struct sorted_sequences {
    std::vector<std::unique_ptr<key[]>> storage;
    std::vector<sequence<key>> seqs;
    std::vector<key> all;  //!< every item, sorted

    //! Sorted by order (a comes first when order(a, b)).
    template <class Order = std::less<>>
    sorted_sequences(std::size_t k, std::size_t max_length, key key_range, std::mt19937_64& rng,
                     Order order = Order()) {
        for (std::size_t i = 0; i < k; ++i) {
            // a third of the sequences are empty, the others of any length up to max_length
            const std::size_t n = rng() % 3 == 0 ? 0 : 1 + rng() % max_length;
            storage.emplace_back(new key[n]);
            key* p = storage.back().get();
            for (std::size_t j = 0; j < n; ++j) p[j] = rng() % key_range;
            std::sort(p, p + n, order);
            seqs.emplace_back(p, p + n);
            all.insert(all.end(), p, p + n);
        }
        std::sort(all.begin(), all.end(), order);
    }

    //! The items before each sequence's (advanced) begin, sorted by order.
    template <class Order = std::less<>>
    std::vector<key> taken(Order order = Order()) const {
        std::vector<key> t;
        for (std::size_t i = 0; i < seqs.size(); ++i)
            t.insert(t.end(), storage[i].get(), seqs[i].first);
        std::sort(t.begin(), t.end(), order);
        return t;
    }
};

//! Merges up to length items with merge(seqs, target, length) and checks output and sequences.
template <class Merge>
void check_merge(sorted_sequences& in, std::size_t length, Merge merge) {
    const std::size_t k = in.seqs.size();
    const std::size_t expected = std::min(length, in.all.size());
    std::vector<key> out(expected + 1, ~key(0));  // one guard item after the merged ones
    merge(in.seqs, out.data(), length);
    REQUIRE(in.seqs.size() == k);
    REQUIRE(out.back() == ~key(0));
    out.pop_back();
    REQUIRE(std::equal(out.begin(), out.end(), in.all.begin()));
    REQUIRE(in.taken() == out);
    for (std::size_t i = 0; i < k; ++i) REQUIRE(in.seqs[i].first <= in.seqs[i].second);
}

}  // namespace

TEST_CASE("merge_sequential merges 0 to 70 sequences, empty ones among them, without over-reads") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t k : sequence_counts)
        for (key range : {key(3), key(1) << 40})
            for (int round = 0; round < 20; ++round) {
                // every fifth round more items than one cascade pass takes
                sorted_sequences in(k, round % 5 == 0 ? 200000 / (k + 1) : 200, range, rng);
                const std::size_t total = in.all.size();
                const std::size_t length = round % 4 == 0   ? total
                                           : round % 4 == 1 ? total + 5
                                                            : std::size_t(rng() % (total + 1));
                INFO("k=" << k << " range=" << range << " total=" << total << " length=" << length);
                check_merge(in, length, [](auto& seqs, key* target, std::size_t n) {
                    emflow::algorithm::detail::merge_sequential(seqs, target, n, std::less<>());
                });
            }
}

TEST_CASE("multiway_merge takes the smallest items of 0 to 70 sequences with 1 and 2 threads") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (unsigned threads : {1u, 2u}) {
        emflow::algorithm::workers w(threads);
        for (std::size_t k : sequence_counts)
            for (key range : {key(3), key(1) << 40})
                for (std::size_t max_length : {std::size_t(50), std::size_t(60000)}) {
                    sorted_sequences in(k, max_length, range, rng);
                    const std::size_t total = in.all.size();
                    // in pieces, as the PPQ's rounds take them: a prefix, the rest and beyond
                    const std::size_t first = std::size_t(rng() % (total + 1));
                    INFO("threads=" << threads << " k=" << k << " range=" << range
                                    << " total=" << total << " first=" << first);
                    std::vector<key> merged;
                    for (std::size_t length : {first, total + 7}) {
                        std::vector<key> out(length);
                        const std::size_t n = emflow::algorithm::multiway_merge(
                            in.seqs, out.data(), length, std::less<>(), w);
                        REQUIRE(n == std::min(length, total - merged.size()));
                        merged.insert(merged.end(), out.begin(), out.begin() + std::ptrdiff_t(n));
                        REQUIRE(in.taken() == merged);
                    }
                    REQUIRE(merged == in.all);
                    for (auto& s : in.seqs) REQUIRE(s.first == s.second);
                }
    }
}

TEST_CASE("multiway_merge with a throwing comparator leaves the sequences as they were") {
    std::mt19937_64 rng(emflow_test::test_seed());
    emflow_test::throwing_greater order{std::make_shared<std::atomic<std::int64_t>>(0)};
    // sequences that make the merge compare at least total / 2 times: two of 2000 items or more
    const auto make = [&](std::size_t k) {
        for (;;) {
            sorted_sequences in(k, 300000 / k, key(1) << 40, rng, order);
            if (std::count_if(in.seqs.begin(), in.seqs.end(),
                              [](const auto& s) { return s.second - s.first >= 2000; }) >= 2)
                return in;
        }
    };
    for (unsigned threads : {1u, 2u}) {
        emflow::algorithm::workers w(threads);
        for (std::size_t k : {3, 8, 70})
            for (int at : {0, 1, 2}) {
                sorted_sequences in = make(k);
                const std::size_t total = in.all.size();
                const std::int64_t when = at == 0 ? 1 : at == 1 ? 1000 : std::int64_t(total / 2);
                INFO("threads=" << threads << " k=" << k << " total=" << total
                                << " throw at comparison " << when);
                std::vector<key> out(total);
                order.countdown->store(when);
                REQUIRE_THROWS_WITH(
                    emflow::algorithm::multiway_merge(in.seqs, out.data(), total, order, w),
                    "comparator failed");
                // the sequences are as before, and the whole merge runs afterwards
                REQUIRE(in.taken(order).empty());
                order.countdown->store(0);
                REQUIRE(emflow::algorithm::multiway_merge(in.seqs, out.data(), total, order, w) ==
                        total);
                REQUIRE(out == in.all);
            }
    }
}
