// SPDX-License-Identifier: BSL-1.0
// tests/buffer_tree/errors_test.cpp: a buffer tree's errors: sizes it rejects, a throwing
// comparator (a clear exception, the tree failed, no block or temp file left), also inside
// flush(f), a full disk (also inside flush(f)).
#include <catch2/catch.hpp>

#include <emflow/buffer_tree.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_env.hpp"
#include "throwing_less.hpp"

namespace {

using u64 = std::uint64_t;
constexpr std::size_t small_block = 4096;

using emflow_test::throwing_less;

}  // namespace

TEST_CASE("buffer tree rejects too little memory and a bad fan-out", "[buffer_tree][errors]") {
    emflow_test::configure_test_disks();
    using tree = emflow::buffer_tree<u64, u64, std::less<u64>, small_block>;
    CHECK_THROWS_AS(tree(std::less<u64>(), {small_block * 8}), std::invalid_argument);
    emflow::buffer_tree_options opt;
    opt.memory_bytes = 64 * small_block;
    opt.fanout_min = 5;
    opt.fanout_max = 8;
    CHECK_THROWS_AS(tree(std::less<u64>(), opt), std::invalid_argument);
}

TEST_CASE("a throwing comparator reaches the caller and leaves no block behind",
          "[buffer_tree][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const u64 bad = 1000000007;
    for (std::size_t bad_at : {std::size_t(10), std::size_t(60000), std::size_t(199999)}) {
        {
            emflow::buffer_tree<u64, u64, throwing_less, small_block> t(throwing_less{bad},
                                                                        {32 * small_block});
            auto run = [&] {
                for (std::size_t i = 0; i < 200000; ++i)
                    t.insert(i == bad_at ? bad : rng() % bad, i);
                t.flush();
            };
            CHECK_THROWS_WITH(run(), "comparator failed");
            CHECK_THROWS_AS(t.insert(1, 1), std::logic_error);
        }
        CHECK(dir.entries() == 0);
    }
    // every block is back: a tree that fits the disk still works
    emflow::buffer_tree<u64, u64, std::less<u64>, small_block> t(std::less<u64>(),
                                                                 {32 * small_block});
    for (u64 i = 0; i < 50000; ++i) t.insert(i, i);
    t.flush();
    u64 n = 0;
    t.for_each([&](u64 k, u64) { CHECK(k == n++); });
    CHECK(n == 50000);
}

namespace {

//! Orders like std::less; throws "comparator failed" at the k-th comparison that meets a
//! marked key, one whose top byte is 0x80 (countdown starts at k; shared by the tree's copies
//! and threads).
struct throwing_at_kth {
    std::atomic<long>* countdown;
    static bool marked(u64 x) { return x >> 56 == 0x80; }
    bool operator()(u64 a, u64 b) const {
        if ((marked(a) || marked(b)) && countdown->fetch_sub(1) == 1)
            throw std::runtime_error("comparator failed");
        return a < b;
    }
};

}  // namespace

TEST_CASE("a comparator throwing at any comparison of one key reaches the caller",
          "[buffer_tree][errors]") {
    // A marked key (1 in 256) is compared in the root's sorts, in a child's multiway merge of
    // its loaded runs (on the merge's worker threads) and in the leaf merges. A run that never
    // throws counts those comparisons; in runs spread over that count the k-th throws.
    // (Checked with a debugger: the runs meet each of those stages.)
    auto& dir = emflow_test::configure_test_disks();
    const u64 seed = emflow_test::test_seed();
    const u64 n = 300000;  // a tree with a level of buffers below the root
    bool threw = false;
    auto run = [&](long k) {
        std::atomic<long> countdown{k};
        threw = false;
        std::mt19937_64 rng(seed);
        {
            emflow::buffer_tree<u64, u64, throwing_at_kth, small_block> t(
                throwing_at_kth{&countdown}, {32 * small_block});
            try {
                for (u64 i = 0; i < n; ++i) t.insert(rng(), i);
                t.flush();
                std::vector<u64> keys;
                t.for_each([&](u64 key, u64) { keys.push_back(key); });
                CHECK(keys.size() == n);
                CHECK(std::is_sorted(keys.begin(), keys.end()));
            } catch (const std::runtime_error& e) {
                CHECK(std::string(e.what()) == "comparator failed");
                threw = true;
                CHECK_THROWS_WITH(t.insert(1, 1),
                                  Catch::Contains("after an operation on it failed"));
            }
        }
        CHECK(dir.entries() == 0);
        return k - countdown.load();  // the comparisons that met bad
    };
    const long compared = run(std::numeric_limits<long>::max());
    REQUIRE_FALSE(threw);
    INFO("marked keys were compared " << compared << " times");
    REQUIRE(compared > 1000);
    // Below 0.9 of the count: the parallel sort and merge may split their work differently.
    int thrown = 0;
    for (long k = 1; k < compared * 9 / 10; k += compared / 16) {
        INFO("throwing at its comparison " << k);
        run(k);
        thrown += threw;
    }
    CHECK(thrown >= 12);
}

TEST_CASE("a comparator throwing inside flush(f) reaches the caller, the tree failed",
          "[buffer_tree][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    const u64 bad = 1000000007;
    {
        emflow::buffer_tree<u64, u64, throwing_less, small_block> t(throwing_less{bad},
                                                                    {32 * small_block});
        for (u64 i = 0; i < 100000; ++i) t.lookup(i);
        t.insert(bad, 0);  // met only when the flush sorts the last requests
        u64 seen = 0;
        CHECK_THROWS_WITH(t.flush([&](const auto&) { ++seen; }), "comparator failed");
        // failed, not still "inside flush(f)": the exception unset f on its way out
        CHECK_THROWS_WITH(t.insert(1, 1), Catch::Contains("after an operation on it failed"));
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a full disk reaches the caller as stxxl::io_error", "[buffer_tree][errors]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{4 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    {
        emflow::buffer_tree<u64, u64, std::less<u64>, small_block> t(std::less<u64>(),
                                                                     {32 * small_block});
        auto fill = [&] {
            for (u64 i = 0; i < (u64(1) << 20); ++i) t.insert(i * 7919 % 1000003, i);
            t.flush();
        };
        CHECK_THROWS_AS(fill(), stxxl::io_error);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a full disk met inside flush(f) reaches the caller, the tree failed",
          "[buffer_tree][errors]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{4 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    // n pairs, flushed, then n more requests: the smallest n whose second batch fits the disk
    // until flush(f) places it next to the leaves it rewrites. Steps of 256: the window is
    // about 450 wide (at 84864 with 24-byte requests; below 5 * 2^14 everything fits).
    bool met_inside_flush = false;
    for (u64 n = 5 << 14; n < (u64(1) << 20) && !met_inside_flush; n += 1 << 8) {
        {
            emflow::buffer_tree<u64, u64, std::less<u64>, small_block> t(std::less<u64>(),
                                                                         {32 * small_block});
            bool before_flush = true;
            try {
                for (u64 i = 0; i < n; ++i) t.insert(i * 7919 % 1000003, i);
                t.flush();
                for (u64 i = 0; i < n; ++i)
                    if (i % 4)
                        t.insert(i * 7919 % 1000003, i);
                    else
                        t.lookup(i * 7919 % 1000003);
                before_flush = false;
                t.flush([](const auto&) {});
            } catch (const stxxl::io_error&) {
                // else the inserts filled the disk before a flush(f) did
                REQUIRE_FALSE(before_flush);
                met_inside_flush = true;
                CHECK_THROWS_WITH(t.insert(1, 1),
                                  Catch::Contains("after an operation on it failed"));
            }
        }
        CHECK(dir.entries() == 0);
    }
    CHECK(met_inside_flush);
}
