// SPDX-License-Identifier: BSL-1.0
// Async pull, async push, push-pull, distribute/collect, pump and connect: same output as the
// synchronous reference for buffer sizes from 1 element up, 8 async nodes on 1 thread and on the
// default arena, randomized graphs, and exceptions thrown inside async segments.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>

#include <numeric>

#include "node_test_util.hpp"
#include "test_env.hpp"

using namespace emflow;
using emflow_test::drain_mixed;
using u64 = std::uint64_t;

namespace {

std::vector<std::size_t> buffer_sizes(std::mt19937_64& rng) {
    return {1, 2, 3, 64, 4096, 1 + rng() % 10000};
}

//! A chain of eight async pull nodes with scanning nodes in between.
template <class Src>
auto eight_async(Src&& src, std::size_t b) {
    auto inc = [](u64 x) { return x + 1; };
    return std::forward<Src>(src) | async_pull(elements(b)) | transform(inc) |
           async_pull(elements(b)) | filter([](u64 x) { return x % 7 != 0; }) |
           async_pull(elements(b)) | transform(inc) | async_pull(elements(b)) |
           async_pull(elements(b)) | transform(inc) | async_pull(elements(b)) |
           async_pull(elements(b)) | async_pull(elements(b));
}

std::vector<u64> eight_async_reference(const std::vector<u64>& v) {
    std::vector<u64> out;
    for (u64 x : v)
        if ((x + 1) % 7 != 0) out.push_back(x + 3);
    return out;
}

void eight_async_nodes_check() {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t b : buffer_sizes(rng)) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(20000 + rng() % 20000)}) {
            if (b < 4 && n > 3000) n = 3000;  // 1-element buffers: one swap per element
            auto v = emflow_test::random_values(rng, n, 1 << 20);
            auto g = eight_async(streamify(v), b);
            CHECK(drain_mixed(g, rng) == eight_async_reference(v));
        }
    }
}

}  // namespace

TEST_CASE("8 async pull nodes in a chain on the default arena", "[async]") {
    eight_async_nodes_check();
}

TEST_CASE("8 async pull nodes in a chain on 1 thread", "[async]") {
    set_flow_concurrency(1);
    REQUIRE(flow_arena().max_concurrency() == 1);
    eight_async_nodes_check();
}

TEST_CASE("async push and push-pull deliver everything in order", "[async]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t b : buffer_sizes(rng)) {
        for (std::size_t n : emflow_test::test_sizes(rng)) {
            if (b < 4 && n > 5000) n = 5000;
            auto v = emflow_test::random_values(rng, n);
            // split pushes a copy through an async push into a push-pull node; the main path
            // is discarded after its own async node; pump drives the source.
            count_sink<u64> side_count;
            push_pull_node<u64> pp(elements(b));
            auto side = async_push(push_transform<u64>(pp, [](u64 x) { return ~x; }), elements(b));
            auto driver =
                pump(split(streamify(v), side, side_count), count_sink<u64>(), 1 + rng() % 500);
            auto out = connect(pp | transform([](u64 x) { return ~x; }), driver);
            CHECK(drain_mixed(out, rng) == v);
            CHECK(side_count.count() == n);
        }
    }
}

TEST_CASE("distribute and collect keep the order with parallel workers", "[async]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t chunk : {std::size_t(1), std::size_t(3), std::size_t(1000)}) {
        for (std::size_t n : emflow_test::test_sizes(rng)) {
            auto v = emflow_test::random_values(rng, n);
            std::size_t b = chunk % 2 == 0 && rng() % 2 ? chunk / 2 : chunk;  // b divides chunk
            push_pull_node<u64> p0(elements(b)), p1(elements(b)), p2(elements(b));
            auto heavy = [](u64 x) { return x * 0x9E3779B97F4A7C15ull + 1; };
            auto driver =
                pump(streamify(v),
                     distribute(chunk, async_push(push_transform<u64>(p0, heavy), elements(b)),
                                async_push(push_transform<u64>(p1, heavy), elements(b)),
                                async_push(push_transform<u64>(p2, heavy), elements(b))));
            auto out = connect(collect(chunk, p0, p1, p2), driver);
            std::vector<u64> expect(v);
            for (auto& x : expect) x = heavy(x);
            CHECK(drain_mixed(out, rng) == expect);
        }
    }
}

TEST_CASE("collect of generators behind async pulls (Figure 7's inner part)", "[async]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t chunk : {std::size_t(1), std::size_t(777)}) {
        u64 per = 10000 + rng() % 1000;
        auto gen = [](u64 base) { return [x = base]() mutable { return x++; }; };
        auto all = collect(chunk, async_pull(generate(per, gen(0)), elements(500)),
                           async_pull(generate(per, gen(per)), elements(500)),
                           async_pull(generate(per - 5, gen(2 * per)), elements(500)));
        auto got = drain_mixed(all, rng);
        REQUIRE(got.size() == 3 * per - 5);
        std::vector<u64> expect;
        for (u64 r = 0; r * chunk < per; ++r)
            for (u64 s = 0; s < 3; ++s)
                for (u64 i = r * chunk; i < std::min<u64>((r + 1) * chunk, s == 2 ? per - 5 : per);
                     ++i)
                    expect.push_back(s * per + i);
        CHECK(got == expect);
    }
}

TEST_CASE("randomized graphs of scanning and async nodes match the synchronous graph", "[async]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (int round = 0; round < 20; ++round) {
        auto v = emflow_test::random_values(rng, rng() % 30000, 1000);
        std::size_t b = 1 + rng() % 2000;
        u64 k = 1 + rng() % 5;
        std::vector<u64> side_sync, side_async;
        bool s1 = false, s2 = false;
        struct rec {
            using value_type = u64;
            std::vector<u64>* out;
            bool* stopped;
            void start(run_context&) {}
            void push(const u64& x) { out->push_back(x); }
            void push_batch(const u64* p, std::size_t n) { out->insert(out->end(), p, p + n); }
            void push_stop() { *stopped = true; }
        };
        auto build = [&](bool async, std::vector<u64>& side, bool& stopped) {
            auto f = [k](u64 x) { return x * k + 3; };
            auto p = [k](u64 x) { return x % (k + 1) != 0; };
            std::vector<u64> out;
            if (async)
                materialize(
                    zip(split(streamify(v) | async_pull(elements(b)) | transform(f),
                              async_push(rec{&side, &stopped}, elements(b))) |
                            async_pull(elements(b)) | filter(p),
                        streamify(v) | filter(p) | async_pull(elements(b))) |
                        transform([](const std::pair<u64, u64>& q) { return q.first ^ q.second; }),
                    std::back_inserter(out));
            else
                materialize(
                    zip(split(streamify(v) | transform(f), rec{&side, &stopped}) | filter(p),
                        streamify(v) | filter(p)) |
                        transform([](const std::pair<u64, u64>& q) { return q.first ^ q.second; }),
                    std::back_inserter(out));
            return out;
        };
        auto sync = build(false, side_sync, s1);
        auto async = build(true, side_async, s2);
        CHECK(sync == async);
        // the side copies are prefixes of f(v) (zip may stop before the end), complete if stopped
        std::vector<u64> full(v);
        for (auto& x : full) x = x * k + 3;
        for (auto* side : {&side_sync, &side_async}) {
            REQUIRE(side->size() <= full.size());
            CHECK(std::equal(side->begin(), side->end(), full.begin()));
        }
        if (s1) CHECK(side_sync == full);
        if (s2) CHECK(side_async == full);
    }
}

namespace {

void check_throws_at(int position, u64 n, std::size_t b) {
    auto maybe_throw = [position](int here) {
        return [position, here](u64 x) {
            if (position == here && x == 777)
                throw std::runtime_error("thrown at " + std::to_string(here));
            return x;
        };
    };
    push_pull_node<u64> pp(elements(b));
    count_sink<u64> sink;
    auto side = async_push(push_transform<u64>(sink, maybe_throw(4)), elements(b));
    auto g =
        connect(generate(n, [i = u64(0)]() mutable { return i++; }) | transform(maybe_throw(0)) |
                    async_pull(elements(b)) | transform(maybe_throw(1)) | async_pull(elements(b)),
                pump(generate(n, [i = u64(0)]() mutable { return i++; }),
                     async_push(push_transform<u64>(pp, maybe_throw(2)), elements(b))));
    auto joined =
        zip(split(g, side), pp | transform(maybe_throw(3)) | async_pull(elements(b))) |
        transform([&](const std::pair<u64, u64>& q) { return maybe_throw(5)(q.first) + q.second; });
    std::vector<u64> out;
    CHECK_THROWS_WITH(materialize(joined, std::back_inserter(out)),
                      "thrown at " + std::to_string(position));
}

}  // namespace

TEST_CASE("exceptions from async segments reach materialize's caller at every position",
          "[async][errors]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (int position = 0; position <= 5; ++position)
        for (std::size_t b : {std::size_t(1), std::size_t(100), std::size_t(100000)})
            check_throws_at(position, 5000 + rng() % 1000, b);
}

TEST_CASE("exceptions from async segments on 1 thread", "[async][errors]") {
    set_flow_concurrency(1);
    for (int position = 0; position <= 5; ++position) check_throws_at(position, 3000, 64);
}
