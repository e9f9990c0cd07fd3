// SPDX-License-Identifier: BSL-1.0
// The node contract of emflow/node.hpp, checked on every node of the library: each pull node is
// read element-wise, batch-wise and mixed (random partial batches, empty() and batch_length()
// asked twice), then asked empty() and batch_length() again and again after the end; each push
// node is fed by single pushes and batches mixed and must deliver everything and stop its
// successors once. Inputs are empty, one element, one batch and a bit, and a few thousand
// elements, from std::vectors and stxxl::vectors. Exceptions thrown by user code reach the
// caller of materialize. The two crash shapes of issue 12 (an stxxl-vector source asked empty()
// again behind async_pull and zip) are among them.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/ppq.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <list>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "node_test_util.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;
using u64_pair = std::pair<u64, u64>;
using ext_vector = stxxl::VECTOR_GENERATOR<u64>::result;

namespace {

enum class access { single, batch, mixed };

//! Reads a pull node inside a graph run by one access pattern and records whether the end
//! keeps the contract (checked by the caller: Catch2 is not used from tasks).
struct reader {
    access how;
    std::uint64_t seed;
    bool end_ok = true;

    template <class Node>
    std::vector<value_t<Node>> operator()(Node& node, const run_options& opt = {}) {
        std::vector<value_t<Node>> out;
        std::mt19937_64 rng(seed);
        run_graph([&](run_context& ctx) { node.start(ctx); },
                  [&](run_context&) {
                      while (!node.empty()) step(node, rng, out);
                      for (int i = 0; i < 3; ++i)
                          end_ok = end_ok && node.empty() && node.batch_length() == 0;
                  },
                  opt);
        return out;
    }

private:
    template <class Node, class Out>
    void step(Node& node, std::mt19937_64& rng, Out& out) {
        const access a = how == access::mixed ? access(rng() % 2) : how;
        if (a == access::single) {
            out.push_back(*node);
            ++node;
            return;
        }
        std::size_t len = node.batch_length();
        if (how == access::mixed) {
            if (node.empty() || node.batch_length() != len)
                end_ok = false;  // asking again changes nothing
            len = 1 + rng() % len;
        }
        auto b = node.batch_begin();
        for (std::size_t i = 0; i < len; ++i) out.push_back(b[i]);
        node += len;
    }
};

//! Builds a graph with build(visit) (visit(node) reads its last node) three times, once per
//! access pattern, and checks the elements and the end.
template <class T, class Build>
void check_pull(const std::string& name, Build&& build, const std::vector<T>& expect, u64 seed) {
    for (access how : {access::single, access::batch, access::mixed}) {
        INFO(name << ", access " << int(how) << ", " << expect.size() << " elements");
        reader r{how, seed};
        std::vector<T> got;
        build([&](auto& node) { got = r(node); });
        CHECK(got == expect);
        CHECK(r.end_ok);
    }
}

//! A push sink recording its elements, push_stop() calls, and pushes after the stop.
struct recorder {
    using value_type = u64;
    std::vector<u64>* out;
    int* stops;
    void start(run_context&) {}
    void push(const u64& x) { push_batch(&x, 1); }
    void push_batch(const u64* p, std::size_t n) {
        if (*stops > 0) *stops = 100;  // data after the end
        out->insert(out->end(), p, p + n);
    }
    void push_stop() { ++*stops; }
};

//! Drives a push node inside a graph run: single pushes and batches of random sizes, mixed,
//! then push_stop().
template <class Node>
void feed_mixed(Node& node, const std::vector<u64>& v, u64 seed, const run_options& opt = {}) {
    std::mt19937_64 rng(seed);
    run_graph([&](run_context& ctx) { node.start(ctx); },
              [&](run_context&) {
                  for (std::size_t i = 0; i < v.size();) {
                      if (rng() % 2 == 0) {
                          node.push(v[i++]);
                          continue;
                      }
                      std::size_t n = std::min<std::size_t>(v.size() - i, 1 + rng() % 3000);
                      node.push_batch(v.data() + i, n);
                      i += n;
                  }
                  node.push_stop();
              },
              opt);
}

//! An element-wise node (no batches): 0, 1, 4, 9, ... (n elements), for batched().
struct squares {
    u64 i = 0, n;
    void start(run_context&) {}
    bool empty() const { return i == n; }
    u64 operator*() const { return i * i; }
    squares& operator++() {
        ++i;
        return *this;
    }
};

//! The README's example of a node written on buffered_pull: running sums of src.
template <class Src>
class running_sum : public buffered_pull<running_sum<Src>, u64> {
    friend class buffered_pull<running_sum, u64>;

public:
    explicit running_sum(Src&& src) : src_(std::forward<Src>(src)) {}
    void start(run_context& ctx) { src_.start(ctx); }

private:
    std::size_t refill(u64* out, std::size_t cap) {
        return read_into(src_, out, cap, [this](u64 x) { return sum_ += x; });
    }
    stored_t<Src> src_;
    u64 sum_ = 0;
};

//! Orders u64 ascending with STXXL's sentinels.
struct ascending {
    bool operator()(u64 a, u64 b) const { return a < b; }
    u64 min_value() const { return 0; }
    u64 max_value() const { return ~u64(0); }
};

std::vector<std::size_t> sizes(std::mt19937_64& rng) {
    return {0, 1, default_chunk + 1, 5000 + rng() % 3000};
}

ext_vector to_ext(const std::vector<u64>& v) {
    ext_vector e;
    for (u64 x : v) e.push_back(x);
    return e;
}

template <class T, class F>
std::vector<T> map(const std::vector<u64>& v, F f) {
    std::vector<T> out;
    for (u64 x : v) out.push_back(f(x));
    return out;
}

std::vector<u64> iota(std::size_t n) {
    std::vector<u64> v(n);
    std::iota(v.begin(), v.end(), u64(0));
    return v;
}

//! A small PPQ (min-queue) with a heap per arena thread.
using min_queue = parallel_priority_queue<u64, std::greater<u64>>;
ppq_options small_queue() {
    ppq_options cfg;
    cfg.memory_bytes = 8u << 20;
    cfg.num_threads = unsigned(std::max(2, flow_arena().max_concurrency()));
    return cfg;
}

}  // namespace

TEST_CASE("sources keep the pull contract", "[conformance]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : sizes(rng)) {
        const u64 seed = rng();
        const std::vector<u64> v = emflow_test::random_values(rng, n);
        const ext_vector ev = to_ext(v);
        const std::vector<u64> rv(v.rbegin(), v.rend());
        const std::list<u64> lv(v.begin(), v.end());
        const std::deque<u64> dv(v.begin(), v.end());

        check_pull(
            "streamify(std::vector)",
            [&](auto&& visit) {
                auto s = streamify(v);
                visit(s);
            },
            v, seed);
        check_pull(
            "streamify(deque range)",
            [&](auto&& visit) {
                auto s = streamify(dv.begin(), dv.end());
                visit(s);
            },
            v, seed);
        check_pull(
            "streamify(list range)",
            [&](auto&& visit) {
                auto s = streamify(lv.begin(), lv.end());
                visit(s);
            },
            v, seed);
        check_pull(
            "streamify(stxxl::vector)",
            [&](auto&& visit) {
                auto s = streamify(ev);
                visit(s);
            },
            v, seed);
        check_pull(
            "streamify_reverse",
            [&](auto&& visit) {
                auto s = streamify_reverse(ev);
                visit(s);
            },
            rv, seed);
        check_pull(
            "generate",
            [&](auto&& visit) {
                auto s = generate(
                    n, [i = std::size_t(0), &v]() mutable { return v[i++]; }, 1 + seed % 5000);
                visit(s);
            },
            v, seed);
        check_pull(
            "refill_source",
            [&](auto&& visit) {
                auto s =
                    refill_source<u64>([i = std::size_t(0), &v](u64* out, std::size_t cap) mutable {
                        std::size_t k = std::min(cap, v.size() - i);
                        std::copy(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(i + k),
                                  out);
                        i += k;
                        return k;
                    });
                visit(s);
            },
            v, seed);
        check_pull(
            "refill_transform",
            [&](auto&& visit) {
                auto s =
                    refill_transform<u64>(streamify(ev), [](auto& src, u64* out, std::size_t cap) {
                        return read_into(src, out, cap, [](u64 x) { return x + 1; });
                    });
                visit(s);
            },
            map<u64>(v, [](u64 x) { return x + 1; }), seed);
        check_pull(
            "batched",
            [&](auto&& visit) {
                auto s = batched(squares{0, n}, 1 + seed % 300);
                visit(s);
            },
            map<u64>(iota(n), [](u64 x) { return x * x; }), seed);
        std::vector<u64> sums(n);
        std::partial_sum(v.begin(), v.end(), sums.begin());
        check_pull(
            "a node on buffered_pull (running_sum)",
            [&](auto&& visit) {
                running_sum<decltype(streamify(ev))> s(streamify(ev));
                visit(s);
            },
            sums, seed);
        check_pull(
            "any_pull_source",
            [&](auto&& visit) {
                any_pull_source<u64> s(streamify(ev));
                visit(s);
            },
            v, seed);

        const std::string path = (dir.path() / ("file-" + std::to_string(n))).string();
        {
            file_sink<u64> out(path);
            materialize(streamify(v), out);
            out.commit();
        }
        check_pull(
            "file_source",
            [&](auto&& visit) {
                auto s = file_source<u64>(path);
                visit(s);
            },
            v, seed);
        check_pull(
            "file_source from an element on",
            [&](auto&& visit) {
                auto s = file_source<u64>(path, n / 3);
                visit(s);
            },
            std::vector<u64>(v.begin() + std::ptrdiff_t(n / 3), v.end()), seed);

        std::vector<u64> sorted(v);
        std::sort(sorted.begin(), sorted.end());
        check_pull(
            "pq_source",
            [&](auto&& visit) {
                min_queue pq(std::greater<u64>(), small_queue());
                for (u64 x : v) pq.push(x);
                auto s = pq_source(pq, 1 + seed % 3000);
                visit(s);
            },
            sorted, seed);
        const u64 limit = n > 0 ? sorted[n / 2] : 0;
        std::vector<u64> before(sorted.begin(),
                                std::lower_bound(sorted.begin(), sorted.end(), limit));
        check_pull(
            "pq_source_until",
            [&](auto&& visit) {
                min_queue pq(std::greater<u64>(), small_queue());
                for (u64 x : v) pq.push(x);
                auto s = pq_source_until(pq, limit, 1 + seed % 3000);
                visit(s);
            },
            before, seed);
        check_pull(
            "pq_source_first",
            [&](auto&& visit) {
                min_queue pq(std::greater<u64>(), small_queue());
                for (u64 x : v) pq.push(x);
                auto s = pq_source_first(pq, n / 2, 1 + seed % 3000);
                visit(s);
            },
            std::vector<u64>(sorted.begin(), sorted.begin() + std::ptrdiff_t(n / 2)), seed);
    }
}

TEST_CASE("scanning nodes keep the pull contract", "[conformance]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : sizes(rng)) {
        const u64 seed = rng();
        const std::vector<u64> v = emflow_test::random_values(rng, n);
        const std::vector<u64> w = emflow_test::random_values(rng, n + n / 3);
        const ext_vector ev = to_ext(v), ew = to_ext(w);
        auto odd = [](u64 x) { return x % 2 == 1; };

        check_pull(
            "transform",
            [&](auto&& visit) {
                auto s = streamify(ev) | transform([](u64 x) { return x ^ 5; });
                visit(s);
            },
            map<u64>(v, [](u64 x) { return x ^ 5; }), seed);
        check_pull(
            "take",
            [&](auto&& visit) {
                auto s = streamify(ev) | take(n - n / 3);
                visit(s);
            },
            std::vector<u64>(v.begin(), v.begin() + std::ptrdiff_t(n - n / 3)), seed);
        std::vector<u64> kept;
        std::copy_if(v.begin(), v.end(), std::back_inserter(kept), odd);
        check_pull(
            "filter",
            [&](auto&& visit) {
                auto s = streamify(ev) | filter(odd);
                visit(s);
            },
            kept, seed);

        std::vector<u64> seen;
        check_pull(
            "tap",
            [&](auto&& visit) {
                seen.clear();
                auto s = streamify(ev) | tap([&](u64 x) { seen.push_back(x); });
                visit(s);
                CHECK(seen == v);
            },
            v, seed);
        check_pull(
            "tap_checksum",
            [&](auto&& visit) {
                checksum sum, expect;
                for (u64 x : v) expect.add(x);
                auto s = streamify(ev) | tap_checksum(sum);
                visit(s);
                CHECK(sum == expect);
            },
            v, seed);
        check_pull(
            "count_progress",
            [&](auto&& visit) {
                u64 counted = 0;
                {
                    progress report([&](const progress_figures& f) {
                        if (f.finished) counted = f.items;
                    });
                    auto phase = report.begin("conformance");
                    auto s = streamify(ev) | count_progress(phase);
                    visit(s);
                }
                CHECK(counted == n);
            },
            v, seed);

        std::vector<u64_pair> pairs;
        for (std::size_t i = 0; i < n; ++i) pairs.emplace_back(v[i], w[i]);
        check_pull(
            "zip(stxxl, stxxl)",
            [&](auto&& visit) {
                auto a = streamify(ev);
                auto b = streamify(ew);
                auto s = zip(a, b);
                visit(s);
            },
            pairs, seed);
        std::vector<u64_pair> swapped;
        for (std::size_t i = 0; i < n; ++i) swapped.emplace_back(w[i], v[i]);
        check_pull(
            "zip(longer, shorter)",
            [&](auto&& visit) {
                auto s = zip(streamify(ew), streamify(ev));
                visit(s);
            },
            swapped, seed);

        check_pull(
            "split",
            [&](auto&& visit) {
                std::vector<u64> side;
                int stops = 0;
                count_sink<u64> counter;
                auto s = split(streamify(ev), recorder{&side, &stops}, counter);
                visit(s);
                CHECK(side == v);
                CHECK(stops == 1);
                CHECK(counter.count() == n);
            },
            v, seed);
        check_pull(
            "connect",
            [&](auto&& visit) {
                count_sink<u64> other_sink;
                auto other = pump(streamify(v), other_sink);
                auto s = connect(streamify(ev), other);
                visit(s);
                CHECK(other_sink.count() == n);
                CHECK(other_sink.stopped());
            },
            v, seed);
    }
}

TEST_CASE("async nodes keep the pull and push contracts", "[conformance]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : sizes(rng)) {
        const u64 seed = rng();
        const std::vector<u64> v = emflow_test::random_values(rng, n);
        const ext_vector ev = to_ext(v);
        const std::size_t b = 1 + seed % 3000;

        check_pull(
            "streamify(stxxl) | async_pull",
            [&](auto&& visit) {
                auto s = streamify(ev) | async_pull(elements(b));
                visit(s);
            },
            v, seed);
        check_pull(
            "async_pull with the budget's buffers",
            [&](auto&& visit) {
                auto s = streamify(ev) | async_pull();
                visit(s);
            },
            v, seed);
        check_pull(
            "push_pull fed by async_push",
            [&](auto&& visit) {
                push_pull_node<u64> pp(elements(b));
                count_sink<u64> main_sink;
                auto side = async_push(pp, elements(b));
                auto s = connect(pp, pump(streamify(ev), side));
                visit(s);
            },
            v, seed);
        const std::size_t chunk = 64 * (1 + seed % 8);
        check_pull(
            "distribute, push_transform and collect",
            [&](auto&& visit) {
                push_pull_node<u64> pp0(elements(chunk)), pp1(elements(chunk));
                auto w0 = async_push(push_transform<u64>(pp0, [](u64 x) { return x + 1; }),
                                     elements(chunk));
                auto w1 = async_push(push_transform<u64>(pp1, [](u64 x) { return x + 1; }),
                                     elements(chunk));
                auto s = connect(collect(chunk, pp0, pp1),
                                 pump(streamify(ev), distribute(chunk, w0, w1)));
                visit(s);
            },
            map<u64>(v, [](u64 x) { return x + 1; }), seed);
    }
}

TEST_CASE("sorting nodes keep the pull contract", "[conformance]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : sizes(rng)) {
        const u64 seed = rng();
        const std::vector<u64> v = emflow_test::random_values(rng, n, ~u64(0) - 1);
        const ext_vector ev = to_ext(v);
        std::vector<u64> sorted(v);
        std::sort(sorted.begin(), sorted.end());
        for (bool async_runs : {true, false}) {
            const sort_options opt{async_runs, async_runs};
            check_pull(
                "sort",
                [&](auto&& visit) {
                    auto s = streamify(ev) | sort(ascending{}, 16 << 20, opt);
                    visit(s);
                },
                sorted, seed);
            check_pull(
                "sorter_node pushed by split",
                [&](auto&& visit) {
                    sorter_node<u64, ascending> sorter(ascending{}, 16 << 20, opt);
                    count_sink<u64> ignored;
                    materialize(split(streamify(ev), sorter), ignored);
                    visit(sorter);
                },
                sorted, seed);
        }
        check_pull(
            "tree_sort",
            [&](auto&& visit) {
                auto s = streamify(ev) | tree_sort(ascending{}, 16 << 20);
                visit(s);
            },
            sorted, seed);
        check_pull(
            "tree_sorter_node pushed by split",
            [&](auto&& visit) {
                tree_sorter_node<u64, ascending> sorter(ascending{}, 16 << 20);
                count_sink<u64> ignored;
                materialize(split(streamify(ev), sorter), ignored);
                visit(sorter);
            },
            sorted, seed);
    }
}

TEST_CASE("push nodes deliver mixed pushes and stop once", "[conformance]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : sizes(rng)) {
        const u64 seed = rng();
        const std::vector<u64> v = emflow_test::random_values(rng, n);
        const auto plus1 = map<u64>(v, [](u64 x) { return x + 1; });
        INFO(n << " elements");
        std::vector<u64> got;
        int stops = 0;
        auto fresh = [&] {
            got.clear();
            stops = 0;
            return recorder{&got, &stops};
        };

        {
            auto r = fresh();
            feed_mixed(r, v, seed);
            CHECK((got == v && stops == 1));
        }
        {
            count_sink<u64> c;
            feed_mixed(c, v, seed);
            CHECK((c.count() == n && c.stopped()));
        }
        {
            auto s = sink<u64>([&](u64 x) { got.push_back(x); }, [&] { ++stops; });
            got.clear();
            stops = 0;
            feed_mixed(s, v, seed);
            CHECK((got == v && stops == 1));
        }
        {
            auto s = batch_sink<u64>(
                [&](const u64* p, std::size_t k) { got.insert(got.end(), p, p + k); },
                [&] { ++stops; });
            got.clear();
            stops = 0;
            feed_mixed(s, v, seed);
            CHECK((got == v && stops == 1));
        }
        {
            auto r = fresh();
            any_push_sink<u64> s(r);
            feed_mixed(s, v, seed);
            CHECK((got == v && stops == 1));
        }
        {
            auto s = push_transform<u64>(fresh(), [](u64 x) { return x + 1; });
            feed_mixed(s, v, seed);
            CHECK((got == plus1 && stops == 1));
        }
        {
            auto s = async_push(fresh(), elements(1 + seed % 3000));
            feed_mixed(s, v, seed);
            CHECK((got == v && stops == 1));
        }
        {
            std::vector<u64> got1;
            int stops1 = 0;
            auto r0 = fresh();
            const std::size_t chunk = 1 + seed % 100;
            auto s = distribute(chunk, r0, recorder{&got1, &stops1});
            feed_mixed(s, v, seed);
            std::vector<u64> all;  // reassemble the round robin
            for (std::size_t i = 0, j = 0; i < got.size() || j < got1.size();) {
                for (std::size_t k = 0; k < chunk && i < got.size(); ++k) all.push_back(got[i++]);
                for (std::size_t k = 0; k < chunk && j < got1.size(); ++k) all.push_back(got1[j++]);
            }
            CHECK((all == v && stops == 1 && stops1 == 1));
        }
        {
            const std::string path = (dir.path() / "push.bin").string();
            file_sink<u64> f(path);
            feed_mixed(f, v, seed);
            f.commit();
            std::vector<u64> back;
            materialize(file_source<u64>(path), std::back_inserter(back));
            CHECK(back == v);
        }
        {
            stxxl::vector<u64> out(3);  // replaced
            auto s = vector_sink(out);
            feed_mixed(s, v, seed);
            std::vector<u64> back;
            materialize(streamify(out), std::back_inserter(back));
            CHECK(back == v);
        }
        {
            sorter_node<u64, ascending> s(ascending{}, 16 << 20);
            std::vector<u64> w = map<u64>(v, [](u64 x) { return x >> 1; });
            feed_mixed(s, w, seed);
            std::vector<u64> back;
            materialize(s, std::back_inserter(back));
            std::sort(w.begin(), w.end());
            CHECK(back == w);
        }
        {
            min_queue pq(std::greater<u64>(), small_queue());
            bulk_push_session<min_queue> session(pq, n, 1);
            auto s = session.sink();
            feed_mixed(s, v, seed);
            CHECK(session.finished());
            std::vector<u64> back;
            pq.bulk_pop(back, SIZE_MAX);
            std::vector<u64> sorted(v);
            std::sort(sorted.begin(), sorted.end());
            CHECK(back == sorted);
        }
        {
            min_queue pq(std::greater<u64>(), small_queue());
            bulk_push_from(pq, n, streamify(v), generate(n, [] { return u64(7); }));
            std::vector<u64> back, expect(v);
            pq.bulk_pop(back, SIZE_MAX);
            expect.insert(expect.end(), n, u64(7));
            std::sort(expect.begin(), expect.end());
            CHECK(back == expect);
        }
    }
}

TEST_CASE("stxxl-vector sources asked empty() again at their end (issue 12's crash shapes)",
          "[conformance]") {
    emflow_test::configure_test_disks();
    const ext_vector a = to_ext(iota(5000)), b = to_ext(iota(5000));
    std::vector<u64> out;
    materialize(streamify(a) | async_pull(), std::back_inserter(out));
    CHECK(out == iota(5000));
    std::vector<u64_pair> pairs;
    materialize(zip(streamify(a), streamify(b)), std::back_inserter(pairs));
    REQUIRE(pairs.size() == 5000);
    CHECK((pairs.back() == u64_pair(4999, 4999)));
}

namespace {

//! A user callable that throws at element `at`, a marker of the node it sits in.
struct thrower {
    u64 at;
    const char* where;
    u64 operator()(u64 x) const {
        if (x == at) throw std::runtime_error(where);
        return x;
    }
};

template <class Graph>
void check_throws(const char* where, Graph&& g) {
    std::vector<u64> out;
    CHECK_THROWS_WITH(materialize(g, std::back_inserter(out)), where);
}

}  // namespace

TEST_CASE("exceptions from user code reach the caller of materialize", "[conformance][errors]") {
    emflow_test::configure_test_disks();
    const std::vector<u64> v = iota(20000);
    const ext_vector ev = to_ext(v);
    const u64 at = 12345;

    check_throws("transform", streamify(ev) | transform(thrower{at, "transform"}));
    check_throws("filter", streamify(v) | filter([t = thrower{at, "filter"}](u64 x) {
                               return t(x) % 2 == 0;
                           }));
    check_throws("tap", streamify(v) | tap([t = thrower{at, "tap"}](u64 x) { t(x); }));
    check_throws("generate", generate(v.size(), [t = thrower{at, "generate"},
                                                 i = u64(0)]() mutable { return t(i++); }));
    check_throws("refill_source", refill_source<u64>([](u64*, std::size_t) -> std::size_t {
                     throw std::runtime_error("refill_source");
                 }));
    check_throws("refill_transform",
                 refill_transform<u64>(streamify(v), [t = thrower{at, "refill_transform"}](
                                                         auto& src, u64* out, std::size_t cap) {
                     return read_into(src, out, cap, t);
                 }));
    check_throws("async_pull",
                 streamify(ev) | transform(thrower{at, "async_pull"}) | async_pull(elements(1000)));
    check_throws("any_pull_source",
                 any_pull_source<u64>(streamify(v) | transform(thrower{at, "any_pull_source"})));
    check_throws("sort",
                 streamify(v) | transform(thrower{at, "sort"}) | sort(ascending{}, 16 << 20));

    std::vector<u64> side;
    auto s1 = sink<u64>([t = thrower{at, "sink"}](u64 x) { t(x); });
    CHECK_THROWS_WITH(materialize(streamify(v), s1), "sink");
    auto s2 = batch_sink<u64>([t = thrower{at, "batch_sink"}](const u64* p, std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) t(p[i]);
    });
    CHECK_THROWS_WITH(materialize(streamify(v), s2), "batch_sink");
    count_sink<u64> counter;
    auto s3 = push_transform<u64>(counter, thrower{at, "push_transform"});
    CHECK_THROWS_WITH(materialize(streamify(v), s3), "push_transform");
    auto s4 = async_push(push_transform<u64>(counter, thrower{at, "async_push"}), elements(1000));
    CHECK_THROWS_WITH(materialize(streamify(v), s4), "async_push");
    auto s5 = split(streamify(v), push_transform<u64>(counter, thrower{at, "split"}));
    check_throws("split", s5);
}

TEST_CASE("vector_sink on a full disk: the error reaches the caller, no file is left",
          "[conformance][errors]") {
    emflow::external_memory_options cfg;
    cfg.disks = {emflow::disk_spec{1u << 20}};
    auto& dir = emflow_test::configure_test_disks(cfg);
    {
        stxxl::VECTOR_GENERATOR<u64, 2, 2, 4096>::result out;  // blocks within the disk
        CHECK_THROWS_WITH(
            materialize(generate(u64(1) << 20, [] { return u64(5); }), vector_sink(out)),
            Catch::Contains("File too large"));
    }
    CHECK(dir.entries() == 0);
}
