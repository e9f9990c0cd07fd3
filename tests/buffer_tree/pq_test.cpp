// SPDX-License-Identifier: BSL-1.0
// tests/buffer_tree/pq_test.cpp: the buffer-tree priority queue against std::priority_queue:
// random interleavings of push, pop and bulk_pop (min- and max-queues, duplicates), the PPQ
// tests' workloads (push all then pop all, monotone time-forward pushes, one key repeated,
// sorted and reversed input), under budgets small enough for several levels on disk; errors
// (sizes, a throwing comparator, a full disk: a clear exception, no temp file left).
#include <catch2/catch.hpp>

#include <emflow/buffer_tree_pq.hpp>

#include <cstdint>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_env.hpp"
#include "throwing_less.hpp"

namespace {

using u64 = std::uint64_t;
constexpr std::size_t small_block = 4096;
constexpr std::size_t small_memory = 64 * small_block;  // tree: 48 blocks, heap: 64 KiB

template <class Cmp>
using small_pq = emflow::buffer_tree_priority_queue<u64, Cmp, small_block>;

//! Pops k from both and checks they agree.
template <class Pq, class Ref>
void pop_both(Pq& pq, Ref& ref, std::size_t k, std::mt19937_64& rng) {
    if (rng() % 2) {
        std::vector<u64> got;
        pq.bulk_pop(got, k);
        std::vector<u64> expect;
        for (; expect.size() < k && !ref.empty(); ref.pop()) expect.push_back(ref.top());
        REQUIRE(got == expect);
        return;
    }
    for (std::size_t i = 0; i < k && !ref.empty(); ++i, ref.pop(), pq.pop()) {
        REQUIRE(!pq.empty());
        REQUIRE(pq.top() == ref.top());
    }
}

//! Random bursts of pushes (values from gen) and pops; then everything popped.
template <class Cmp, class Gen>
void run_pq(std::size_t rounds, std::mt19937_64& rng, Gen gen) {
    if (emflow_test::under_address_sanitizer()) rounds /= 4;
    small_pq<Cmp> pq(Cmp(), {small_memory});
    std::priority_queue<u64, std::vector<u64>, Cmp> ref;
    std::size_t height = 0;
    for (std::size_t r = 0; r < rounds; ++r) {
        const std::size_t pushes = rng() % 20000;
        for (std::size_t i = 0; i < pushes; ++i) {
            const u64 x = gen(ref);
            pq.push(x);
            ref.push(x);
        }
        REQUIRE(pq.size() == ref.size());
        height = std::max(height, pq.stats().height);
        pop_both(pq, ref, rng() % 15000, rng);
    }
    pop_both(pq, ref, ref.size(), rng);
    CHECK(pq.empty());
    CHECK(height >= 2);
}

}  // namespace

TEST_CASE("buffer tree PQ matches std::priority_queue on random bursts", "[buffer_tree][pq]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    run_pq<std::greater<u64>>(40, rng, [&](const auto&) { return rng() % 100000; });
    run_pq<std::less<u64>>(40, rng, [&](const auto&) { return rng(); });
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree PQ: time-forward pushes after the last pop", "[buffer_tree][pq]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    run_pq<std::greater<u64>>(
        40, rng, [&](const auto& ref) { return (ref.empty() ? 0 : ref.top()) + rng() % 1000000; });
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree PQ: push all then pop all, sorted, reversed and one key",
          "[buffer_tree][pq]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const std::size_t n = 400000;
    for (int kind = 0; kind < 4; ++kind) {
        small_pq<std::greater<u64>> pq(std::greater<u64>(), {small_memory});
        std::vector<u64> v(n);
        for (std::size_t i = 0; i < n; ++i)
            v[i] = kind == 0 ? rng() : kind == 1 ? i : kind == 2 ? n - i : 42;
        for (u64 x : v) pq.push(x);
        std::sort(v.begin(), v.end());
        std::vector<u64> got, part;
        while (!pq.empty()) {
            pq.bulk_pop(part, 1 + rng() % 50000);
            got.insert(got.end(), part.begin(), part.end());
        }
        CHECK(got == v);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree PQ: errors", "[buffer_tree][pq][errors]") {
    emflow_test::configure_test_disks();
    CHECK_THROWS_AS(small_pq<std::less<u64>>(std::less<u64>(), {small_block * 16}),
                    std::invalid_argument);
    small_pq<std::less<u64>> pq(std::less<u64>(), {small_memory});
    CHECK_THROWS_AS(pq.top(), std::logic_error);
    std::vector<u64> out{1, 2};
    pq.bulk_pop(out, 10);
    CHECK(out.empty());
}

TEST_CASE("buffer tree PQ: a throwing comparator reaches the caller, no block left",
          "[buffer_tree][pq][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const u64 bad = 1000000007;
    for (std::size_t bad_at : {std::size_t(10), std::size_t(150000)}) {
        {
            small_pq<emflow_test::throwing_less> pq(emflow_test::throwing_less{bad},
                                                    {small_memory});
            auto run = [&] {
                for (std::size_t i = 0; i < 200000; ++i) {
                    pq.push(i == bad_at ? bad : rng() % bad);
                    if (i % 1000 == 999) pq.pop();
                }
                while (!pq.empty()) pq.pop();
            };
            CHECK_THROWS_WITH(run(), "comparator failed");
            CHECK_THROWS_AS(pq.push(1), std::logic_error);
        }
        CHECK(dir.entries() == 0);
    }
}

TEST_CASE("buffer tree PQ: a full disk reaches the caller as stxxl::io_error",
          "[buffer_tree][pq][errors]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{4 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    {
        small_pq<std::greater<u64>> pq(std::greater<u64>(), {small_memory});
        auto fill = [&] {
            for (u64 i = 0; i < (u64(1) << 20); ++i) pq.push(i * 7919 % 1000003);
            while (!pq.empty()) pq.pop();
        };
        CHECK_THROWS_AS(fill(), stxxl::io_error);
        CHECK_THROWS_AS(pq.push(1), std::logic_error);
    }
    CHECK(dir.entries() == 0);
}
