// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_state.hpp: what every operation of the PPQ soak shares: the queue, its
// multiset model, the random choices (batch sizes, key patterns, limits) and the checks.
#pragma once

#include "soak_options.hpp"
#include "soak_reference.hpp"

#include <emflow/ppq.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace soak {

using queue = emflow::parallel_priority_queue<item, key_greater>;

//! Key patterns, one per wave.
enum class pattern { random, few_distinct, clock, all_equal };

//! The queue, its model and the run's random state.
struct soak_state {
    explicit soak_state(const options& o)
        : opt(o), rng(o.seed), pq(key_greater(), queue_options(o)),
          crest(std::size_t(o.volume * double(o.budget_mib << 20) / sizeof(item))),
          max_batch(std::clamp<std::size_t>(crest / 64, 1000, std::size_t(1) << 20)) {}

    options opt;
    std::mt19937_64 rng;
    queue pq;
    model ref;
    std::vector<item> out;        //!< the last extraction's items
    const std::size_t crest;      //!< queue size at which a wave turns to draining
    const std::size_t max_batch;  //!< the largest batch of one call
    pattern keys = pattern::random;
    bool growing = true;
    std::uint64_t clock = 0;  //!< the largest key extracted (the clock pattern pushes after it)
    std::uint64_t serial = 0;
    std::uint64_t ops = 0;    //!< item operations done
    std::uint64_t calls = 0;  //!< random calls done
    const char* call_name = "start";

    // ---- random choices ----
    std::uint64_t below(std::uint64_t n) { return n ? rng() % n : 0; }
    //! A batch size, log-uniform in [1, max].
    std::size_t batch(std::size_t max) {
        std::uniform_real_distribution<double> d(0, std::log(double(max) + 1));
        return std::clamp<std::size_t>(std::size_t(std::exp(d(rng))), 1, max);
    }
    //! Pushing batches are larger than popping ones while the wave grows (often a whole
    //! batch), smaller after, so that the queue reaches the crest and drains again.
    std::size_t push_batch() { return growing ? big_batch() : batch(max_batch / 16); }
    std::size_t pop_batch() { return growing ? batch(max_batch / 16) : big_batch(); }
    std::size_t big_batch() {
        return below(3) == 0 ? max_batch / 2 + below(max_batch / 2) : batch(max_batch);
    }
    std::uint64_t draw_key() {
        switch (keys) {
            case pattern::random:
                return rng() >> 4;
            case pattern::few_distinct:
                return below(16);
            case pattern::clock:  // time-forward processing: at or after the last extracted key
                return clock + below(1000);
            default:
                return 42;
        }
    }
    item make_item() { return item{draw_key(), ++serial}; }
    std::vector<item> make_items(std::size_t n) {
        std::vector<item> v(n);
        for (item& x : v) x = make_item();
        return v;
    }
    //! A limit near the front of the queue: about k items before it (or a key of the pattern).
    item make_limit(std::size_t k) {
        if (ref.empty() || (!growing && below(4) == 0)) return make_item();
        const std::uint64_t range = keys == pattern::random         ? std::uint64_t(1) << 60
                                    : keys == pattern::few_distinct ? 16
                                    : keys == pattern::clock        ? 1000
                                                                    : 1;
        const std::uint64_t gap = range / ref.size() + 1;
        const std::uint64_t span = gap > range / k ? range : gap * k;
        return item{ref.min_key() + below(span + 2), ++serial};
    }
    //! An item that does not come before limit.
    item after(const item& limit) {
        item x = make_item();
        if (x.key < limit.key) x.key = limit.key + below(3);
        return x;
    }
    void new_wave() {
        growing = true;
        keys = pattern(below(4));
    }

    // ---- checks ----
    //! Takes the extracted items out of the model, in order.
    void take_all(const char* what) {
        for (const item& x : out) {
            ref.take_next(x, what);
            clock = std::max(clock, x.key);
        }
        check_size(what);
        done(out.size());
    }
    void check_size(const char* what) {
        if (pq.size() != ref.size())
            throw mismatch(std::string("size() ") + std::to_string(pq.size()) + " after " + what +
                           ", model holds " + std::to_string(ref.size()));
    }
    void done(std::size_t items) { ops += std::max<std::size_t>(items, 1); }
    //! f() must throw E and leave the queue's size unchanged.
    template <class E, class F>
    void expect_throw(const char* what, F f) {
        const std::size_t before = ref.size();
        try {
            f();
        } catch (const E&) {
            if (pq.size() != before) throw mismatch(std::string(what) + " changed the size");
            return;
        }
        throw mismatch(std::string(what) + " did not throw");
    }

private:
    static emflow::ppq_options queue_options(const options& o) {
        emflow::ppq_options cfg;
        cfg.memory_bytes = o.budget_mib << 20;
        cfg.num_threads = o.threads;
        return cfg;
    }
};

//! Runs f(0..t-1) on t std::threads; rethrows the first exception.
template <class F>
void on_threads(unsigned t, F f) {
    std::vector<std::exception_ptr> errors(t);
    std::vector<std::thread> threads;
    for (unsigned id = 0; id < t; ++id)
        threads.emplace_back([&, id] {
            try {
                f(id);
            } catch (...) {
                errors[id] = std::current_exception();
            }
        });
    for (std::thread& th : threads) th.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace soak
