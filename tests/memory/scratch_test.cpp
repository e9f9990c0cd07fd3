// SPDX-License-Identifier: BSL-1.0
// Fixed buffers inside the budget: every node that holds a scratch chunk, a batch buffer or file
// buffers declares exactly those bytes to the run's memory plan. Each case compares the run-long
// declarations of a graph with and without the node: they must grow by the node's bytes, so a
// node whose buffer is not declared (or declared twice, or declared but never held) fails here.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>

#include <cstdint>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;
using pair_t = std::pair<u64, u64>;

namespace {

//! The run-long bytes a run declared: in all, and by consumer name.
struct declared {
    std::size_t total = 0;                     //!< sum over every run-long consumer
    std::map<std::string, std::size_t> named;  //!< bytes per name
};

declared run_long(const memory_report& r) {
    declared d;
    for (const auto& p : r.phases)
        if (p.level == std::numeric_limits<int>::min())
            for (const auto& [name, bytes] : p.consumers) {
                d.total += bytes;
                d.named[name] += bytes;
            }
    return d;
}

//! Runs the graph ending in src into a std::vector; its run-long declarations.
template <class Src>
declared of_graph(Src&& src) {
    memory_report r;
    run_options opt;
    opt.memory = &r;
    std::vector<value_t<Src>> out;
    materialize(src, std::back_inserter(out), opt);
    return run_long(r);
}

//! Runs src into the push node sink; its run-long declarations.
template <class Src, class Sink>
declared of_push_graph(Src&& src, Sink&& sink) {
    memory_report r;
    run_options opt;
    opt.memory = &r;
    materialize(src, sink, opt);
    return run_long(r);
}

std::vector<u64> numbers(std::size_t n) {
    std::vector<u64> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = i * 7 + 1;
    return v;
}

constexpr std::size_t chunk_u64 = default_chunk * sizeof(u64);

}  // namespace

TEST_CASE("scratch: a plain source over a std::vector declares nothing", "[memory][scratch]") {
    const auto v = numbers(10000);
    CHECK(of_graph(streamify(v)).total == 0);
    CHECK(of_graph(streamify(v) | transform([](u64 x) { return x + 1; })).total == 0);
}

TEST_CASE("scratch: buffered pull nodes declare their batch buffer", "[memory][scratch]") {
    const auto v = numbers(10000);
    const auto w = numbers(9000);
    auto odd = [](u64 x) { return x % 2 == 1; };
    {
        declared d = of_graph(streamify(v) | filter(odd));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["filter chunk"] == chunk_u64);
    }
    {
        declared d = of_graph(zip(streamify(v), streamify(w)));
        CHECK(d.total == default_chunk * sizeof(pair_t));
        CHECK(d.named["zip chunk"] == default_chunk * sizeof(pair_t));
    }
    {
        declared d = of_graph(collect(100, streamify(v), streamify(w)));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["collect chunk"] == chunk_u64);
    }
    {
        declared d = of_graph(generate(
            5000, [] { return u64(3); }, 1000));
        CHECK(d.total == 1000 * sizeof(u64));
        CHECK(d.named["refill chunk"] == 1000 * sizeof(u64));
    }
    {
        auto halves = [](auto& src, u64* out, std::size_t cap) {
            return read_into(src, out, cap, [](u64 x) { return x / 2; });
        };
        declared d = of_graph(refill_transform<u64>(streamify(v), halves, 300));
        CHECK(d.total == 300 * sizeof(u64));
        CHECK(d.named["refill chunk"] == 300 * sizeof(u64));
    }
    {
        declared d = of_graph(any_pull_source<u64>(streamify(v) | filter(odd)));
        CHECK(d.total == 2 * chunk_u64);
        CHECK(d.named["any_pull_source chunk"] == chunk_u64);
    }
    {
        const std::list<u64> l(v.begin(), v.end());
        declared d = of_graph(streamify(l.begin(), l.end()));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["range chunk"] == chunk_u64);
    }
}

TEST_CASE("scratch: batched declares its chunk", "[memory][scratch]") {
    // a node with single access only, made a batch node by batched()
    struct counter {
        u64 i = 0, n = 3000;
        void start(run_context&) {}
        bool empty() const { return i == n; }
        u64 operator*() const { return i; }
        counter& operator++() {
            ++i;
            return *this;
        }
    };
    declared d = of_graph(batched(counter{}, 700));
    CHECK(d.total == 700 * sizeof(u64));
    CHECK(d.named["batched chunk"] == 700 * sizeof(u64));
}

TEST_CASE("scratch: push bridges declare a chunk only where batches are copied",
          "[memory][scratch]") {
    const auto v = numbers(10000);
    auto plus = [](u64 x) { return x + 1; };
    u64 sum = 0;
    auto add = [&](u64 x) { sum += x; };
    // pointer batches pass through unchanged: no scratch is held
    CHECK(of_push_graph(streamify(v), sink<u64>(add)).total == 0);
    {
        // a transform's lazy batches are copied into the chunk
        declared d = of_push_graph(streamify(v) | transform(plus), sink<u64>(add));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["push chunk"] == chunk_u64);
    }
    {
        auto s = sink<u64>(add);
        CHECK(of_graph(split(streamify(v), s)).total == 0);
    }
    {
        auto s = sink<u64>(add);
        declared d = of_graph(split(streamify(v) | transform(plus), s));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["split chunk"] == chunk_u64);
    }
    {
        auto s = sink<u64>(add);
        declared d = of_push_graph(streamify(v), push_transform<u64>(s, plus));
        CHECK(d.total == chunk_u64);
        CHECK(d.named["push_transform chunk"] == chunk_u64);
    }
    {
        memory_report r;
        run_options opt;
        opt.memory = &r;
        sorter_node<u64, std::less<>> s(std::less<>{}, 0);
        auto p = pump(streamify(v) | transform(plus), s, 1000);
        std::vector<u64> out;
        materialize(connect(s, p), std::back_inserter(out), opt);
        declared d = run_long(r);
        CHECK(d.total == 1000 * sizeof(u64));
        CHECK(d.named["pump chunk"] == 1000 * sizeof(u64));
        CHECK(out.size() == v.size());
    }
    CHECK(sum > 0);
}

TEST_CASE("scratch: file nodes declare their two buffers", "[memory][scratch]") {
    const auto v = numbers(100000);
    const std::string path = "scratch-test.bin";
    const std::size_t buffers = 2 * detail::file_chunk_elems<u64>() * sizeof(u64);
    {
        file_sink<u64> out(path);
        declared d = of_push_graph(streamify(v), out);
        out.commit();
        CHECK(d.total == buffers);
        CHECK(d.named["file writer"] == buffers);
    }
    declared d = of_graph(file_source<u64>(path));
    CHECK(d.total == buffers);
    CHECK(d.named["file reader"] == buffers);
}

TEST_CASE("scratch: a budget below a node's chunk names it and its bytes", "[memory][scratch]") {
    const auto v = numbers(10000);
    run_options opt;
    opt.memory_bytes = chunk_u64 / 2;
    std::vector<u64> out;
    auto graph = streamify(v) | filter([](u64 x) { return x > 5; });
    CHECK_THROWS_WITH(materialize(graph, std::back_inserter(out), opt),
                      Catch::Contains("filter chunk ") &&
                          Catch::Contains("(" + std::to_string(chunk_u64) + " bytes)"));
    CHECK(out.empty());
}
