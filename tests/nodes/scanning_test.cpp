// SPDX-License-Identifier: BSL-1.0
// Sources, sinks and scanning nodes against naive in-memory references: random inputs, empty
// input, one element, consumers mixing element-wise and batch access with batch sizes 1..5000.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/uint40.hpp>
#include <stxxl/vector>

#include <list>
#include <numeric>

#include "node_test_util.hpp"
#include "test_env.hpp"

using namespace emflow;
using emflow_test::drain_mixed;
using u64 = std::uint64_t;

TEST_CASE("streamify over std::vector, iterator ranges and list", "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto v = emflow_test::random_values(rng, n);
        auto a = streamify(v);
        CHECK(drain_mixed(a, rng) == v);
        auto b = streamify(v.begin(), v.end());
        CHECK(drain_mixed(b, rng) == v);
        std::list<u64> l(v.begin(), v.end());
        auto c = streamify(l.begin(), l.end());
        CHECK(drain_mixed(c, rng) == v);
    }
}

TEST_CASE("streamify over stxxl::vector forwards and reverse, materialize back", "[nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5000),
                          std::size_t(300000 + rng() % 100000)}) {
        auto v = emflow_test::random_values(rng, n);
        stxxl::VECTOR_GENERATOR<u64>::result ev;
        for (u64 x : v) ev.push_back(x);
        auto fwd = streamify(ev);
        CHECK(drain_mixed(fwd, rng) == v);
        auto rev = streamify_reverse(ev);
        CHECK(drain_mixed(rev, rng) == std::vector<u64>(v.rbegin(), v.rend()));

        stxxl::VECTOR_GENERATOR<u64>::result out;
        out.push_back(42);  // replaced
        materialize(streamify(ev) | transform([](u64 x) { return x ^ 1; }), out);
        REQUIRE(out.size() == n);
        std::vector<u64> back(out.begin(), out.end());
        for (auto& x : back) x ^= 1;
        CHECK(back == v);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("stxxl::vector sources answer empty() again after the end", "[nodes]") {
    // The two shapes that crashed: an async pull and a zip over stxxl::vector sources both ask
    // empty() once more after it returned true.
    emflow_test::configure_test_disks();
    stxxl::VECTOR_GENERATOR<u64>::result ev;
    for (u64 i = 0; i < 5000; ++i) ev.push_back(i);
    auto src = streamify(ev);
    std::vector<u64> seen;
    bool again = false;
    run_graph([&](run_context& ctx) { src.start(ctx); },
              [&](run_context&) {
                  while (!src.empty()) {
                      seen.push_back(*src);
                      ++src;
                  }
                  again = src.empty() && src.empty() && src.batch_length() == 0;
              });
    CHECK(again);
    CHECK(seen.size() == 5000);

    std::vector<u64> out;
    materialize(streamify(ev) | async_pull(elements(1000)), std::back_inserter(out));
    CHECK(out.size() == 5000);
    std::vector<std::pair<u64, u64>> pairs;
    materialize(zip(streamify(ev), streamify_reverse(ev)), std::back_inserter(pairs));
    REQUIRE(pairs.size() == 5000);
    CHECK(pairs.back() == std::pair<u64, u64>(4999, 0));
}

TEST_CASE("file_source reads from any element on, across chunk boundaries", "[nodes]") {
    // 5-byte elements: a chunk boundary is a multiple of 5 and of the I/O alignment, so a read
    // from element k starts unaligned and must reach the next boundary with whole elements.
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const std::string path = (dir.path() / "uint40.bin").string();
    const std::size_t chunk_elems = emflow::detail::file_chunk_elems<uint40>();
    const std::size_t n = 3 * chunk_elems + 77;  // a little over three chunks
    std::vector<uint40> v(n);
    for (auto& x : v) x = uint40(rng() >> 24);
    {
        file_sink<uint40> out(path);
        materialize(streamify(v), out);
        out.commit();
    }
    std::vector<std::size_t> firsts = {0, 1, n / 2, n - 1, n};
    for (int i = 0; i < 6; ++i) firsts.push_back(rng() % n);
    for (std::size_t chunk = 0; chunk < n; chunk += chunk_elems)
        for (std::size_t d : {std::size_t(0), std::size_t(1)}) {  // on a boundary, right before
            if (chunk >= d) firsts.push_back(chunk - d);
        }
    for (std::size_t first : firsts) {
        INFO("first = " << first);
        std::vector<std::uint64_t> got, want;
        auto s = file_source<uint40>(path, first);
        materialize(s, sink<uint40>([&got](uint40 x) { got.push_back(std::uint64_t(x)); }));
        for (std::size_t i = first; i < n; ++i) want.push_back(std::uint64_t(v[i]));
        CHECK(got == want);
    }
    std::vector<uint40> none;
    CHECK_THROWS_WITH(materialize(file_source<uint40>(path, n + 1), std::back_inserter(none)),
                      Catch::Contains("reading from element"));
}

TEST_CASE("skip_ahead: file_source jumps, through any_pull_source too, others pass batches",
          "[nodes]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    const std::string path = (dir.path() / "skip.bin").string();
    // 5-byte elements: a jump lands off the I/O alignment and must read on to the next chunk
    // boundary with whole elements.
    const std::size_t chunk_elems = emflow::detail::file_chunk_elems<uint40>();
    const std::size_t n = 7 * chunk_elems + 123;
    std::vector<uint40> v(n);
    for (auto& x : v) x = uint40(rng() >> 24);
    {
        file_sink<uint40> out(path);
        materialize(streamify(v), out);
        out.commit();
    }
    auto check = [&](const auto& got, std::uint64_t first) {
        REQUIRE(!got.empty());
        for (const auto& r : got) {
            INFO("index " << r.index << " from " << first);
            REQUIRE(std::uint64_t(r.value) == std::uint64_t(v[first + r.index]));
        }
    };
    for (int rep = 0; rep < 20; ++rep) {
        const std::uint64_t first = rep % 2 ? rng() % n : 0;
        INFO("seed " << seed << ", rep " << rep);
        auto f = file_source<uint40>(path, first);
        check(emflow_test::drain_skipping(f, n - first, chunk_elems, rng), first);
        any_pull_source<uint40> a(file_source<uint40>(path, first));
        check(emflow_test::drain_skipping(a, n - first, chunk_elems, rng), first);
        any_pull_source<uint40> s(streamify(v.begin() + std::ptrdiff_t(first), v.end()));
        check(emflow_test::drain_skipping(s, n - first, chunk_elems, rng), first);
    }
    // A jump reads nothing it passes: from the start to the last chunk of 64 reads the first
    // two chunks (in flight at start) and the last one (STXXL counts the first two).
    const std::size_t byte_chunk = emflow::detail::file_chunk_elems<std::uint8_t>();
    const std::size_t big = 64 * byte_chunk;
    const std::string big_path = (dir.path() / "big.bin").string();
    {
        file_sink<std::uint8_t> out(big_path);
        materialize(generate(big, [] { return std::uint8_t(7); }), out);
        out.commit();
    }
    const auto before = current_io_volume();
    any_pull_source<std::uint8_t> far{file_source<std::uint8_t>(big_path)};
    std::uint64_t read = 0;
    run_graph([&](run_context& ctx) { far.start(ctx); },
              [&](run_context&) {
                  REQUIRE(skip_ahead(far, big - 10) == big - 10);
                  for (; !far.empty(); ++far) read += *far;
              });
    CHECK(read == 7 * 10);
    CHECK(current_io_volume().bytes_read - before.bytes_read <= 3 * byte_chunk);
}

TEST_CASE("materialize into stxxl::vectors of every page shape, across many blocks", "[nodes]") {
    // STXXL 1.4.1's vector_bufwriter loses blocks when it grows a vector whose pages hold one
    // block; materialize must be correct for every vector shape.
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    const auto v = emflow_test::random_values(rng, 600000 + rng() % 1000);
    auto check = [&](auto out) {
        out.push_back(42);  // replaced
        materialize(streamify(v), out);
        REQUIRE(out.size() == v.size());
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < v.size(); ++i) wrong += out[i] != v[i];
        CHECK(wrong == 0);
    };
    check(stxxl::VECTOR_GENERATOR<u64, 1, 1, 64 * 1024>::result());
    check(stxxl::VECTOR_GENERATOR<u64, 1, 4, 64 * 1024>::result());
    check(stxxl::VECTOR_GENERATOR<u64, 2, 2, 64 * 1024>::result());
    check(stxxl::VECTOR_GENERATOR<u64, 4, 8, 64 * 1024>::result());
    CHECK(dir.entries() == 0);
}

TEST_CASE("generate and refill_source", "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        u64 next = 7;
        auto g = generate(n, [&next] { return next++ * 3; });
        std::vector<u64> expect(n);
        for (std::size_t i = 0; i < n; ++i) expect[i] = (7 + i) * 3;
        CHECK(drain_mixed(g, rng) == expect);

        std::size_t pos = 0;
        std::size_t chunk = 1 + rng() % 100;
        auto r = refill_source<u64>(
            [&](u64* out, std::size_t cap) {
                std::size_t k = std::min({cap, n - pos, std::size_t(1 + rng() % 50)});
                for (std::size_t i = 0; i < k; ++i) out[i] = expect[pos + i];
                pos += k;
                return k;
            },
            chunk);
        CHECK(drain_mixed(r, rng) == expect);
    }
}

TEST_CASE("transform, filter and tap chains", "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto v = emflow_test::random_values(rng, n, 1000);
        std::vector<u64> expect;
        checksum ref_in, ref_out;
        u64 tapped_sum = 0, ref_sum = 0;
        for (u64 x : v) {
            ref_in.add(x);
            u64 y = x * 3 + 1;
            if (y % 4 != 0) {
                ref_sum += y;
                expect.push_back(y + 5);
                ref_out.add(y + 5);
            }
        }
        checksum in_sum, out_sum;
        auto chain =
            streamify(v) | tap_checksum(in_sum) | transform([](u64 x) { return x * 3 + 1; }) |
            filter([](u64 y) { return y % 4 != 0; }) | tap([&](u64 y) { tapped_sum += y; }) |
            transform([](u64 y) { return y + 5; }) | tap_checksum(out_sum);
        CHECK(drain_mixed(chain, rng) == expect);
        CHECK(in_sum == ref_in);
        CHECK(out_sum == ref_out);
        CHECK(tapped_sum == ref_sum);
        CHECK(in_sum.count() == n);
    }
}

TEST_CASE("checksum distinguishes multisets and ignores order", "[nodes]") {
    checksum a, b, c;
    for (u64 x : {1, 2, 3}) a.add(x);
    for (u64 x : {3, 1, 2}) b.add(x);
    for (u64 x : {1, 2, 4}) c.add(x);
    CHECK(a == b);
    CHECK(a != c);
    CHECK(a.value() == b.value());
}

TEST_CASE("zip joins two inputs and stops at the shorter", "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto a = emflow_test::random_values(rng, n);
        std::size_t m = n == 0 ? 0 : rng() % (n + 10);
        auto b = emflow_test::random_values(rng, m);
        std::vector<std::pair<u64, u64>> expect;
        for (std::size_t i = 0; i < std::min(n, m); ++i) expect.emplace_back(a[i], b[i]);
        auto z = zip(streamify(a) | filter([](u64) { return true; }),
                     streamify(b) | transform([](u64 x) { return x; }));
        CHECK(drain_mixed(z, rng) == expect);
    }
}

namespace {

//! A push sink recording everything (reference for push edges).
struct recording_sink {
    using value_type = u64;
    std::vector<u64>* out;
    bool* stopped;
    void start(run_context&) {}
    void push(const u64& x) { out->push_back(x); }
    void push_batch(const u64* p, std::size_t n) { out->insert(out->end(), p, p + n); }
    void push_stop() { *stopped = true; }
};

//! An element-wise only user node (no batch interface): counts up to n.
struct counting_node {
    u64 i = 0, n;
    void start(run_context&) {}
    bool empty() const { return i == n; }
    u64 operator*() const { return i * i; }
    counting_node& operator++() {
        ++i;
        return *this;
    }
};

}  // namespace

TEST_CASE("split pushes side-ways while pulled into sinks and push_transform", "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto v = emflow_test::random_values(rng, n);
        std::vector<u64> side;
        bool stopped = false;
        count_sink<u64> counter;
        auto s = split(streamify(v) | transform([](u64 x) { return x + 1; }),
                       recording_sink{&side, &stopped}, counter);
        auto got = drain_mixed(s, rng);
        std::vector<u64> expect(v);
        for (auto& x : expect) ++x;
        CHECK(got == expect);
        CHECK(side == expect);
        CHECK(stopped);
        CHECK(counter.count() == n);
        CHECK(counter.stopped());

        std::vector<u64> pushed;
        bool stopped2 = false;
        materialize(streamify(v), push_transform<u64>(recording_sink{&pushed, &stopped2},
                                                      [](u64 x) { return x / 2; }));
        std::vector<u64> halves(v);
        for (auto& x : halves) x /= 2;
        CHECK(pushed == halves);
        CHECK(stopped2);
    }
}

TEST_CASE("zip stopping at the shorter input still feeds a split on the longer one to its end",
          "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto a = emflow_test::random_values(rng, n);
        auto b = emflow_test::random_values(rng, n / 3);
        for (bool async : {false, true}) {
            std::vector<u64> side;
            bool stopped = false;
            std::vector<std::pair<u64, u64>> out;
            if (async) {  // the side segment waits for push_stop() in a task of its own
                auto side_node =
                    async_push(recording_sink{&side, &stopped}, elements(1 + rng() % 1000));
                materialize(zip(streamify(b), split(streamify(a), side_node)),
                            std::back_inserter(out));
            } else {
                materialize(zip(streamify(b), split(streamify(a), recording_sink{&side, &stopped})),
                            std::back_inserter(out));
            }
            CHECK(out.size() == b.size());
            CHECK(side == a);
            CHECK(stopped);
        }
    }
}

TEST_CASE("materialize to an output iterator and the batched adapter over an element-wise node",
          "[nodes]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (u64 n : {0, 1, 5, 10000}) {
        std::vector<u64> out;
        materialize(batched(counting_node{0, n}, 1 + rng() % 300) |
                        filter([](u64 x) { return x % 2 == 0; }),
                    std::back_inserter(out));
        std::vector<u64> expect;
        for (u64 i = 0; i < n; ++i)
            if (i * i % 2 == 0) expect.push_back(i * i);
        CHECK(out == expect);
    }
}

TEST_CASE("an exception in a scanning node reaches materialize's caller", "[nodes][errors]") {
    std::vector<u64> v(10000);
    std::iota(v.begin(), v.end(), 0);
    std::vector<u64> out;
    CHECK_THROWS_WITH(materialize(streamify(v) | transform([](u64 x) {
                                      if (x == 5000) throw std::runtime_error("boom");
                                      return x;
                                  }),
                                  std::back_inserter(out)),
                      "boom");
}

TEST_CASE("any_pull_source and any_push_sink stand for any node", "[nodes]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        auto v = emflow_test::random_values(rng, n);
        stxxl::VECTOR_GENERATOR<u64>::result ev;
        for (u64 x : v) ev.push_back(x);
        any_pull_source<u64> a(streamify(v) | transform([](u64 x) { return x; }));
        CHECK(drain_mixed(a, rng) == v);
        any_pull_source<u64> b(streamify(ev));
        CHECK(drain_mixed(b, rng) == v);

        count_sink<u64> counter;
        any_push_sink<u64> erased(counter);
        materialize(streamify(v), erased);
        CHECK(counter.count() == n);
        CHECK(counter.stopped());
    }
    // An exception from the erased source reaches the caller.
    std::vector<u64> v(10000, 1);
    any_pull_source<u64> failing(streamify(v) | transform([](u64 x) -> u64 {
                                     throw std::runtime_error("source failed");
                                     return x;
                                 }));
    std::vector<u64> out;
    CHECK_THROWS_WITH(materialize(failing, std::back_inserter(out)), "source failed");
}
