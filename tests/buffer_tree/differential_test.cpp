// SPDX-License-Identifier: BSL-1.0
// tests/buffer_tree/differential_test.cpp: the buffer tree against std::multimap on random
// interleavings of inserts, erases and look-ups (duplicates, erases of absent keys, look-ups
// before and after erases of their key), under budgets small enough for several levels on disk,
// with flushes and answer pulls in between; flush(f) against flush() and a pull.
#include <catch2/catch.hpp>

#include <emflow/buffer_tree.hpp>
#include <emflow/flow.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_env.hpp"

namespace {

using u64 = std::uint64_t;
constexpr std::size_t small_block = 4096;
using small_tree = emflow::buffer_tree<u64, u64, std::less<u64>, small_block>;
using answer = small_tree::value_type;
using answers_by_query = std::map<u64, std::vector<std::pair<bool, u64>>>;

//! Moves every waiting answer of t into got.
template <class Tree>
void pull_answers(Tree& t, answers_by_query& got, std::mt19937_64& rng) {
    while (!t.empty()) {
        if (rng() % 2) {
            got[(*t).query].push_back({(*t).found, (*t).value});
            ++t;
            continue;
        }
        const std::size_t n = std::min<std::size_t>(t.batch_length(), 1 + rng() % 300);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& a = t.batch_begin()[i];
            got[a.query].push_back({a.found, a.value});
        }
        t += n;
    }
}

//! Runs ops random operations on keys below key_range through a tree of values of Value with
//! opt and a multimap; checks every answer and the final contents, and the tree's shape where
//! keys are all but unique (many copies of a key may keep a leaf node out of a..b). Returns the
//! tree's height.
template <class Value = u64>
std::size_t run_differential(emflow::buffer_tree_options opt, std::size_t ops, u64 key_range,
                             std::mt19937_64& rng) {
    if (emflow_test::under_address_sanitizer()) ops /= 4;
    const bool check_shape = key_range >= ops * ops;
    emflow::buffer_tree<u64, Value, std::less<u64>, small_block> t(std::less<u64>(), opt);
    std::multimap<u64, Value> ref;
    answers_by_query expect, got;
    std::size_t height = 0;
    for (std::size_t i = 0; i < ops; ++i) {
        const u64 key = rng() % key_range;
        const unsigned what = rng() % 100;
        if (what < 60) {
            const auto value = Value(rng());
            t.insert(key, value);
            ref.emplace(key, value);
        } else if (what < 75) {
            t.erase(key);
            ref.erase(key);
        } else {
            const u64 q = t.lookup(key);
            auto& e = expect[q];
            auto [lo, hi] = ref.equal_range(key);
            for (auto it = lo; it != hi; ++it) e.push_back({true, u64(it->second)});
            if (lo == hi) e.push_back({false, 0});
        }
        if (rng() % 50000 == 0) {
            t.flush();
            if (check_shape) t.verify();
        }
        if (rng() % 5000 == 0) pull_answers(t, got, rng);
        height = std::max(height, t.stats().height);
    }
    t.flush();
    if (check_shape) t.verify();
    pull_answers(t, got, rng);
    REQUIRE(got.size() == expect.size());
    CHECK(got == expect);
    std::vector<std::pair<u64, Value>> content;
    t.for_each([&](u64 k, Value v) { content.push_back({k, v}); });
    CHECK(content == std::vector<std::pair<u64, Value>>(ref.begin(), ref.end()));
    return height;
}

}  // namespace

TEST_CASE("buffer tree matches std::multimap with the paper's fan-out", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    emflow::buffer_tree_options opt;
    opt.memory_bytes = 32 * small_block;  // m = 32: (a, b) = (1, 4), buffers of 16 blocks
    for (u64 range : {u64(300), u64(20000), u64(1) << 40}) {
        const std::size_t h = run_differential(opt, 160000, range, rng);
        if (range > 300) CHECK(h >= 3);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree matches std::multimap with other fan-outs and buffers", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (auto [a, b, buf] : {std::tuple<std::size_t, std::size_t, std::size_t>{2, 4, 4},
                             {4, 16, 8},
                             {8, 32, 32},
                             {3, 6, 2}}) {
        emflow::buffer_tree_options opt;
        opt.memory_bytes = 64 * small_block;
        opt.fanout_min = a;
        opt.fanout_max = b;
        opt.buffer_blocks = buf;
        run_differential(opt, 80000, 1 + rng() % 50000, rng);
        run_differential(opt, 40000, u64(1) << 40, rng);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree of 4-byte values (requests stored with their time) matches std::multimap",
          "[buffer_tree]") {
    static_assert(!emflow::detail::buffer_tree::compact_requests_v<std::uint32_t>);
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    emflow::buffer_tree_options opt;
    opt.memory_bytes = 32 * small_block;
    run_differential<std::uint32_t>(opt, 80000, 300, rng);
    CHECK(run_differential<std::uint32_t>(opt, 120000, u64(1) << 40, rng) >= 3);
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree: many copies of few keys erased and looked up", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    emflow::buffer_tree_options opt;
    opt.memory_bytes = 32 * small_block;
    run_differential(opt, 100000, 3, rng);
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree: an empty tree and a look-up in it", "[buffer_tree]") {
    emflow_test::configure_test_disks();
    small_tree t(std::less<u64>(), {32 * small_block});
    t.flush();
    CHECK(t.empty());
    const u64 q = t.lookup(5);
    CHECK(t.empty());  // not applied yet
    t.flush();
    REQUIRE(t.batch_length() == 1);
    CHECK((*t).query == q);
    CHECK(!(*t).found);
    ++t;
    CHECK(t.empty());
    std::size_t n = 0;
    t.for_each([&](u64, u64) { ++n; });
    CHECK(n == 0);
}

TEST_CASE("buffer tree answers pulled through a graph under a budget", "[buffer_tree]") {
    emflow_test::configure_test_disks();
    small_tree t(std::less<u64>(), {32 * small_block});
    std::vector<u64> queries;
    for (u64 i = 0; i < 20000; ++i) {
        t.insert(i % 5000, i);
        if (i % 7 == 0) queries.push_back(t.lookup(i % 6000));
    }
    t.flush();
    emflow::memory_report report;
    emflow::run_options opt;
    opt.memory_bytes = 1 << 20;
    opt.memory = &report;
    std::vector<answer> got;
    emflow::materialize(t, std::back_inserter(got), opt);
    CHECK(t.empty());
    std::size_t found = 0, missing = 0;
    for (const auto& a : got) (a.found ? found : missing) += 1;
    CHECK(missing > 0);
    CHECK(found > 0);
    bool declared = false;
    for (const auto& ph : report.phases)
        for (const auto& [name, bytes] : ph.consumers)
            declared = declared || (name == "buffer tree" && bytes == 32 * small_block);
    CHECK(declared);
}

TEST_CASE("buffer tree: flush(f) hands f the answers flush() would leave waiting",
          "[buffer_tree]") {
    emflow_test::configure_test_disks();
    const u64 seed = emflow_test::test_seed();
    auto run = [&](bool to_f, std::vector<answer>& got) {
        small_tree t(std::less<u64>(), {32 * small_block});
        std::mt19937_64 rng(seed);
        for (u64 i = 0; i < 60000; ++i) {
            const u64 key = rng() % 20000;
            if (i % 3 == 0)
                t.lookup(key);
            else
                t.insert(key, i);
            if (i == 30000) t.flush();  // answers waiting when flush(f) starts
        }
        if (to_f)
            t.flush([&](const answer& a) { got.push_back(a); });
        else
            for (t.flush(); !t.empty(); ++t) got.push_back(*t);
        CHECK(t.empty());
        return t.stats().blocks_written;
    };
    std::vector<answer> queued, handed;
    const u64 written_queued = run(false, queued), written_handed = run(true, handed);
    REQUIRE(handed.size() == queued.size());
    REQUIRE(handed.size() > 20000);
    for (std::size_t i = 0; i < handed.size(); ++i) {
        CHECK(handed[i].query == queued[i].query);
        CHECK(handed[i].value == queued[i].value);
        CHECK(handed[i].found == queued[i].found);
    }
    // flush() writes the answers' blocks between head and tail, flush(f) not
    const std::size_t answer_blocks = handed.size() * sizeof(answer) / small_block;
    CHECK(written_handed + answer_blocks / 2 < written_queued);
}

TEST_CASE("buffer tree: an exception from flush(f)'s f reaches the caller", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        small_tree t(std::less<u64>(), {32 * small_block});
        for (u64 i = 0; i < 50000; ++i) t.lookup(i);
        std::size_t seen = 0;
        CHECK_THROWS_WITH(t.flush([&](const answer&) {
            if (++seen == 1000) throw std::runtime_error("consumer failed");
        }),
                          "consumer failed");
        CHECK(seen == 1000);
        CHECK_THROWS_AS(t.lookup(1), std::logic_error);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("buffer tree: flush(f)'s f calling the tree is refused", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    for (int call = 0; call < 5; ++call) {
        small_tree t(std::less<u64>(), {32 * small_block});
        for (u64 i = 0; i < 20000; ++i) t.lookup(i);
        if (call == 2) t.flush();  // answers waiting: f meets them before the flush's own
        std::size_t seen = 0;
        CHECK_THROWS_WITH(t.flush([&](const answer&) {
            ++seen;
            if (call == 0) t.insert(1, 1);
            if (call == 1 || call == 2) t.empty();
            if (call == 3) (void)*t;  // a peek at the answers f is being handed
            if (call == 4) (void)t.answers_waiting();
        }),
                          Catch::Contains("called from the f of its own flush(f)"));
        CHECK(seen == 1);
        CHECK_THROWS_AS(t.lookup(1), std::logic_error);
    }
    CHECK(dir.entries() == 0);
}
