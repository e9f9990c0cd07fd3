// SPDX-License-Identifier: BSL-1.0
// Test support for the PPQ: a reference model (std::multiset in pop order), key generators and a
// driver that runs random operation sequences mixing every interface of the queue against it.
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace ppq_test {

//! A 24-byte item: a key and a payload that makes every item distinct.
struct item24 {
    std::uint64_t key;
    std::uint64_t payload;
    std::uint64_t check;
    bool operator==(const item24& o) const {
        return key == o.key && payload == o.payload && check == o.check;
    }
};
//! Orders item24 by key only (so equal keys with different payloads are equivalent).
struct item24_less {
    bool operator()(const item24& a, const item24& b) const { return a.key < b.key; }
};
//! A custom order on uint64_t: by the low 10 bits first, then by value, descending.
struct low_bits_greater {
    bool operator()(std::uint64_t a, std::uint64_t b) const {
        if ((a & 1023) != (b & 1023)) return (a & 1023) > (b & 1023);
        return a > b;
    }
};

//! Key patterns of the tests.
enum class pattern { random, ascending, descending, all_equal, few_distinct };

inline const char* name(pattern p) {
    switch (p) {
        case pattern::random:
            return "random";
        case pattern::ascending:
            return "ascending";
        case pattern::descending:
            return "descending";
        case pattern::all_equal:
            return "all_equal";
        default:
            return "few_distinct";
    }
}

//! Produces keys of a pattern; ascending/descending refer to numeric key order.
class key_source {
public:
    key_source(pattern p, std::uint64_t seed) : p_(p), rng_(seed) {}
    std::uint64_t next() {
        switch (p_) {
            case pattern::random:
                return rng_() >> 4;
            case pattern::ascending:
                return counter_ += rng_() % 3;
            case pattern::descending:
                return (std::uint64_t(1) << 60) - (counter_ += rng_() % 3);
            case pattern::all_equal:
                return 42;
            default:
                return rng_() % 5;
        }
    }
    std::mt19937_64& rng() { return rng_; }

private:
    pattern p_;
    std::mt19937_64 rng_;
    std::uint64_t counter_ = 0;
};

//! Makes items of type T from keys (a unique payload for item24).
template <class T>
struct item_maker;
template <>
struct item_maker<std::uint64_t> {
    std::uint64_t make(std::uint64_t key) { return key; }
    static std::uint64_t key_of(std::uint64_t x) { return x; }
};
template <>
struct item_maker<item24> {
    std::uint64_t serial = 0;
    item24 make(std::uint64_t key) {
        ++serial;
        return item24{key, serial, key ^ (serial * 0x9E3779B97F4A7C15ull)};
    }
    static std::uint64_t key_of(const item24& x) { return x.key; }
};

//! The queue and its reference model; every extraction is checked against the model.
template <class T, class Compare>
class checked_queue {
public:
    struct pop_less {
        Compare cmp;
        bool operator()(const T& a, const T& b) const { return cmp(b, a); }
    };

    checked_queue(const emflow::ppq_options& cfg) : pq(Compare(), cfg), ref(pop_less{Compare()}) {}

    void push(const T& x) {
        pq.push(x);
        ref.insert(x);
    }
    //! Checks that x is the next item of the model and removes exactly x from it.
    void expect_next(const T& x) {
        REQUIRE(!ref.empty());
        REQUIRE_FALSE(before(*ref.begin(), x));
        REQUIRE_FALSE(before(x, *ref.begin()));
        auto range = ref.equal_range(x);
        for (auto it = range.first; it != range.second; ++it)
            if (*it == x) {
                ref.erase(it);
                return;
            }
        FAIL("extracted an item that was never pushed (or twice)");
    }
    bool before(const T& a, const T& b) const { return Compare()(b, a); }
    void check_size() { REQUIRE(pq.size() == ref.size()); }

    emflow::parallel_priority_queue<T, Compare> pq;
    std::multiset<T, pop_less> ref;
};

//! Which interfaces a random run uses.
struct op_mix {
    bool single = true;     //!< push/top/pop
    bool bulk_push = true;  //!< bulk_push phases (OpenMP and oneTBB, 1..num_threads threads)
    bool bulk_pop = true;   //!< bulk_pop and bulk_pop_limit
    bool limit = true;      //!< limit phases
    bool sorted = true;     //!< push_sorted (in place of some bulk_push phases)
};

//! Runs steps random operations; items per operation up to max_batch.
template <class T, class Compare>
void random_run(const emflow::ppq_options& cfg, pattern pat, std::uint64_t seed, std::size_t steps,
                std::size_t max_batch, op_mix mix = op_mix()) {
    checked_queue<T, Compare> q(cfg);
    key_source keys(pat, seed);
    item_maker<T> maker;
    auto& rng = keys.rng();
    const unsigned threads = q.pq.layout().threads;
    std::vector<T> out;
    for (std::size_t step = 0; step < steps; ++step) {
        const unsigned op = unsigned(rng() % 7);
        const std::size_t k = 1 + rng() % max_batch;
        INFO("step " << step << " op " << op << " k " << k << " size " << q.ref.size());
        if (op == 0 && mix.single) {
            for (std::size_t i = 0; i < k; ++i) q.push(maker.make(keys.next()));
        } else if (op == 1 && mix.single) {
            for (std::size_t i = 0; i < k && !q.ref.empty(); ++i) {
                T t = q.pq.top();
                q.expect_next(t);
                q.pq.pop();
            }
        } else if (op == 2 && mix.bulk_push) {
            std::vector<T> items;
            for (std::size_t i = 0; i < k; ++i) items.push_back(maker.make(keys.next()));
            if (mix.sorted && rng() % 3 == 0) {
                std::sort(items.begin(), items.end(), q.ref.value_comp());
                std::vector<T> run = items;
                q.pq.push_sorted(std::move(run));
                q.ref.insert(items.begin(), items.end());
                q.check_size();
                continue;
            }
            const unsigned t = 1 + unsigned(rng() % threads);
            q.pq.bulk_push_begin(rng() % 2 ? items.size() : items.size() / 4);
            if (rng() % 2) {
#pragma omp parallel for num_threads(t) schedule(static)
                for (std::size_t i = 0; i < items.size(); ++i) q.pq.bulk_push(items[i]);
            } else {
                tbb::task_arena arena{int(t)};
                arena.execute([&] {
                    tbb::parallel_for(std::size_t(0), items.size(),
                                      [&](std::size_t i) { q.pq.bulk_push(items[i]); });
                });
            }
            q.pq.bulk_push_end();
            q.ref.insert(items.begin(), items.end());
        } else if (op == 3 && mix.bulk_pop) {
            const std::size_t max = rng() % 4 ? k : k * 16;
            const std::size_t expect = std::min(max, q.ref.size());
            q.pq.bulk_pop(out, max);
            REQUIRE(out.size() == expect);
            for (auto& x : out) q.expect_next(x);
        } else if (op == 4 && mix.bulk_pop) {
            const T limit = maker.make(keys.next());
            const std::size_t max = rng() % 2 ? SIZE_MAX : k * 4;
            bool done = q.pq.bulk_pop_limit(out, limit, max);
            REQUIRE(out.size() <= max);
            for (auto& x : out) {
                REQUIRE(q.before(x, limit));
                q.expect_next(x);
            }
            const bool more = !q.ref.empty() && q.before(*q.ref.begin(), limit);
            REQUIRE(done == !more);
            if (out.size() < max) REQUIRE_FALSE(more);
        } else if (op == 5 && mix.limit) {
            const T limit = maker.make(keys.next());
            q.pq.limit_begin(limit, 1 + rng() % (4 * max_batch));
            const std::size_t n = rng() % (2 * max_batch);
            for (std::size_t i = 0; i < n; ++i) {
                if (rng() % 3 == 0) {
                    // a push that does not come before the limit: the limit itself or later
                    T x = maker.make(item_maker<T>::key_of(limit));
                    T y = maker.make(keys.next());
                    if (!q.before(y, limit)) x = y;
                    q.pq.limit_push(x, unsigned(rng() % threads));
                    q.ref.insert(x);
                } else if (!q.ref.empty()) {
                    T t = q.pq.limit_top();
                    q.expect_next(t);
                    q.pq.limit_pop();
                }
            }
            q.pq.limit_end();
        } else if (op == 6) {
            q.check_size();
        }
        q.check_size();
    }
    // drain and compare everything that is left
    while (!q.ref.empty()) {
        q.pq.bulk_pop(out, 1 + rng() % (64 * max_batch));
        REQUIRE(!out.empty());
        for (auto& x : out) q.expect_next(x);
    }
    REQUIRE(q.pq.empty());
}

//! A configuration with a tiny budget and 4 KiB blocks: many external arrays and merges.
inline emflow::ppq_options tiny_config(unsigned threads, std::size_t memory = 2 << 20,
                                       std::size_t block = 4096) {
    emflow::ppq_options cfg;
    cfg.memory_bytes = memory;
    cfg.block_size = block;
    cfg.num_threads = threads;
    cfg.max_arrays_per_level = 4;
    return cfg;
}

}  // namespace ppq_test
