// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_run.hpp: one differential soak of parallel_priority_queue: random calls of
// every public member, each result checked against the multiset model (soak_reference.hpp), in
// waves that grow the queue past its budget and drain it again.
#pragma once

#include "soak_options.hpp"
#include "soak_reference.hpp"

#include <emflow/ppq.hpp>

#include <omp.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace soak {

//! The figures of a finished run.
struct run_summary {
    std::uint64_t ops = 0;            //!< item operations done
    std::uint64_t calls = 0;          //!< operations (random calls) done
    double seconds = 0;               //!< wall time of the loop and the final drain
    std::size_t max_items = 0;        //!< largest queue size
    std::uint64_t bytes_written = 0;  //!< the queue's disk writes
    std::uint64_t flushes = 0;        //!< the queue's flushes to disk
    std::map<std::string, std::uint64_t> calls_by_kind;  //!< operations of each kind
};

using queue = emflow::parallel_priority_queue<item, key_greater>;

//! Key patterns, one per wave.
enum class pattern { random, few_distinct, clock, all_equal };

class soak_run {
public:
    explicit soak_run(const options& o)
        : o_(o), rng_(o.seed), pq_(key_greater(), queue_options(o)),
          crest_(std::size_t(o.volume * double(o.budget_mib << 20) / sizeof(item))),
          batch_(std::clamp<std::size_t>(crest_ / 64, 1000, std::size_t(1) << 20)) {}

    //! The index of the current operation (for the failure message).
    std::uint64_t call() const { return calls_; }
    //! Its name.
    const char* call_name() const { return call_name_; }
    //! Item operations so far.
    std::uint64_t ops() const { return ops_; }

    //! Runs the operations, then drains the queue; throws mismatch at the first wrong result.
    run_summary run() {
        const auto start = std::chrono::steady_clock::now();
        auto last_report = start;
        new_wave();
        while (ops_ < o_.ops) {
            one_call();
            ++by_kind_[call_name_];
            max_items_ = std::max(max_items_, ref_.size());
            if (ref_.size() >= crest_ && growing_) growing_ = false;
            if (!growing_ && ref_.size() <= crest_ / 64) new_wave();
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report > std::chrono::seconds(5)) {
                report(std::chrono::duration<double>(now - start).count());
                last_report = now;
            }
        }
        drain();
        run_summary s;
        s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        s.ops = ops_;
        s.calls = calls_;
        s.max_items = max_items_;
        const emflow::ppq_stats st = pq_.stats();
        s.bytes_written = st.bytes_written;
        s.flushes = st.flushes;
        s.calls_by_kind = by_kind_;
        return s;
    }

private:
    static emflow::ppq_options queue_options(const options& o) {
        emflow::ppq_options cfg;
        cfg.memory_bytes = o.budget_mib << 20;
        cfg.num_threads = o.threads;
        return cfg;
    }

    // ---- random choices ----
    std::uint64_t below(std::uint64_t n) { return n ? rng_() % n : 0; }
    //! A batch size, log-uniform in [1, max].
    std::size_t batch(std::size_t max) {
        std::uniform_real_distribution<double> d(0, std::log(double(max) + 1));
        return std::clamp<std::size_t>(std::size_t(std::exp(d(rng_))), 1, max);
    }
    //! Pushing batches are larger than popping ones while the wave grows (often a whole
    //! batch), smaller after, so that the queue reaches the crest and drains again.
    std::size_t push_batch() { return growing_ ? big_batch() : batch(batch_ / 16); }
    std::size_t pop_batch() { return growing_ ? batch(batch_ / 16) : big_batch(); }
    std::size_t big_batch() {
        return below(3) == 0 ? batch_ / 2 + below(batch_ / 2) : batch(batch_);
    }
    std::uint64_t draw_key() {
        switch (pattern_) {
            case pattern::random:
                return rng_() >> 4;
            case pattern::few_distinct:
                return below(16);
            case pattern::clock:  // time-forward processing: at or after the last extracted key
                return clock_ + below(1000);
            default:
                return 42;
        }
    }
    item make_item() { return item{draw_key(), ++serial_}; }
    std::vector<item> make_items(std::size_t n) {
        std::vector<item> v(n);
        for (item& x : v) x = make_item();
        return v;
    }
    //! A limit near the front of the queue: about k items before it (or a key of the pattern).
    item make_limit(std::size_t k) {
        if (ref_.empty() || (!growing_ && below(4) == 0)) return make_item();
        const std::uint64_t range = pattern_ == pattern::random         ? std::uint64_t(1) << 60
                                    : pattern_ == pattern::few_distinct ? 16
                                    : pattern_ == pattern::clock        ? 1000
                                                                        : 1;
        const std::uint64_t gap = range / ref_.size() + 1;
        const std::uint64_t span = gap > range / k ? range : gap * k;
        return item{ref_.min_key() + below(span + 2), ++serial_};
    }
    void new_wave() {
        growing_ = true;
        pattern_ = pattern(below(4));
    }

    // ---- the operations ----
    void one_call() {
        ++calls_;
        const std::uint64_t r = below(100);
        // growing: mostly pushes; draining: mostly extractions
        const unsigned w[] = {growing_ ? 10u : 5u,
                              growing_ ? 30u : 8u,
                              growing_ ? 10u : 4u,
                              growing_ ? 10u : 15u,
                              growing_ ? 12u : 30u,
                              growing_ ? 8u : 15u,
                              growing_ ? 14u : 16u,
                              4u,
                              2u};
        std::uint64_t acc = 0;
        unsigned op = 0;
        for (; op < 8; ++op)
            if (r < (acc += w[op])) break;
        switch (op) {
            case 0:
                return single_pushes(push_batch());
            case 1:
                return bulk_phase(push_batch());
            case 2:
                return sorted_run(push_batch());
            case 3:
                return single_pops(pop_batch());
            case 4:
                return bulk_pops(pop_batch());
            case 5:
                return bulk_pops_limit(pop_batch());
            case 6:
                return limit_phase(growing_ ? push_batch() : pop_batch());
            case 7:
                return inspect();
            default:
                return misuse();
        }
    }

    void single_pushes(std::size_t k) {
        call_name_ = "push";
        for (std::size_t i = 0; i < k; ++i) {
            const item x = make_item();
            pq_.push(x);
            ref_.insert(x);
        }
        done(k);
    }
    void single_pops(std::size_t k) {
        call_name_ = "top/pop";
        std::size_t n = 0;
        for (; n < k && !ref_.empty(); ++n) {
            const item t = pq_.top();
            ref_.take_next(t, "top()");
            pq_.pop();
            clock_ = t.key;
        }
        done(n);
    }

    //! One bulk phase, pushed in one of five ways by up to num_threads threads.
    void bulk_phase(std::size_t k) {
        const std::vector<item> items = make_items(k);
        const unsigned t = 1 + unsigned(below(o_.threads));
        const std::uint64_t how = below(5);
        const std::size_t approx[] = {k, k / 4, 4 * k, 0};
        pq_.bulk_push_begin(approx[below(4)]);
        const std::uint64_t seed = rng_();
        if (how == 0) {
            call_name_ = "bulk_push (std::threads with ids)";
            on_threads(t, [&](unsigned id) { push_slice(items, t, id, seed, true); });
        } else if (how == 1) {
            call_name_ = "bulk_push (oneTBB tasks, no id)";
            tbb::task_arena arena{int(t)};
            const std::size_t chunks = std::min<std::size_t>(k, 4 * t);
            arena.execute([&] {
                tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
                    push_slice(items, unsigned(chunks), unsigned(c), seed, false);
                });
            });
        } else if (how == 2) {
            call_name_ = "bulk_push (plain std::threads, no id)";
            on_threads(t, [&](unsigned id) { push_slice(items, t, id, seed, false); });
        } else if (how == 3) {
            call_name_ = "bulk_push (OpenMP, no id)";
            std::exception_ptr error;
            std::mutex m;
#pragma omp parallel for num_threads(t) schedule(static, 1)
            for (unsigned id = 0; id < t; ++id) {
                try {
                    push_slice(items, t, id, seed, false);
                } catch (...) {
                    std::lock_guard<std::mutex> lock(m);
                    if (!error) error = std::current_exception();
                }
            }
            if (error) std::rethrow_exception(error);
        } else {
            call_name_ = "bulk_push (calling thread, explicit id)";
            const unsigned id = unsigned(below(o_.threads));
            for (const item& x : items) pq_.bulk_push(x, id);
        }
        pq_.bulk_push_end();
        ref_.insert(items.begin(), items.end());
        check_size("bulk_push_end()");
        done(k);
    }
    //! Pushes slice `part` of `parts` of items, single items and arrays mixed (by seed).
    void push_slice(const std::vector<item>& items, unsigned parts, unsigned part,
                    std::uint64_t seed, bool with_id) {
        const std::size_t begin = items.size() * part / parts;
        const std::size_t end = items.size() * (part + 1) / parts;
        std::mt19937_64 rng(seed + part);
        for (std::size_t i = begin; i < end;) {  // n == 0: an empty array
            const std::size_t n = std::min<std::size_t>(end - i, rng() % 2 ? 1 : rng() % 5000);
            if (n == 1)
                with_id ? pq_.bulk_push(items[i], part) : pq_.bulk_push(items[i]);
            else
                with_id ? pq_.bulk_push(items.data() + i, n, part)
                        : pq_.bulk_push(items.data() + i, n);
            i += n;
        }
    }
    //! Runs f(0..t-1) on t std::threads; rethrows the first exception.
    template <class F>
    static void on_threads(unsigned t, F f) {
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

    void sorted_run(std::size_t k) {
        call_name_ = "push_sorted";
        std::vector<item> run = make_items(k);
        std::sort(run.begin(), run.end(), model_less());
        if (k >= 2 && run.front().key != run.back().key && below(8) == 0) {
            std::vector<item> unsorted = run;
            std::swap(unsorted.front(), unsorted.back());
            expect_throw<std::invalid_argument>("push_sorted() of an unsorted run",
                                                [&] { pq_.push_sorted(std::move(unsorted)); });
        }
        const std::vector<item> copy = run;
        pq_.push_sorted(std::move(run));
        ref_.insert(copy.begin(), copy.end());
        check_size("push_sorted()");
        done(k);
    }

    void bulk_pops(std::size_t k) {
        call_name_ = "bulk_pop";
        const std::size_t max = below(50) == 0 ? 0 : k;
        pq_.bulk_pop(out_, max);
        if (out_.size() != std::min(max, ref_.size()))
            throw mismatch("bulk_pop(" + std::to_string(max) + ") gave " +
                           std::to_string(out_.size()) + " items, model holds " +
                           std::to_string(ref_.size()));
        take_all("bulk_pop()");
    }
    void bulk_pops_limit(std::size_t k) {
        call_name_ = "bulk_pop_limit";
        const item limit = make_limit(k);
        const bool unlimited = !growing_ && below(2) == 0;
        const std::size_t max = unlimited ? SIZE_MAX : k;
        const bool done_flag =
            unlimited ? pq_.bulk_pop_limit(out_, limit) : pq_.bulk_pop_limit(out_, limit, max);
        if (out_.size() > max) throw mismatch("bulk_pop_limit() gave more than max_size items");
        for (const item& x : out_)
            if (x.key >= limit.key)
                throw mismatch("bulk_pop_limit() gave " + describe(x) + ", not before the limit " +
                               describe(limit));
        take_all("bulk_pop_limit()");
        const bool more = ref_.any_before(limit);
        if (done_flag == more) throw mismatch("bulk_pop_limit() returned the wrong done flag");
        if (out_.size() < max && more)
            throw mismatch("bulk_pop_limit() stopped before max_size with items before the limit");
    }

    //! A limit phase: extractions, limit_push from this thread and bursts from several threads.
    void limit_phase(std::size_t k) {
        call_name_ = "limit phase";
        const item limit = make_limit(k);
        pq_.limit_begin(limit, 1 + below(k));
        std::size_t n = 0;
        const std::uint64_t push_share = growing_ ? 2 : 1;  // of 3
        for (std::size_t step = 0; step < k; ++step) {
            if (below(3) < push_share) {
                if (below(64) == 0) {
                    n += limit_push_burst(limit, 1 + below(1000));
                    continue;
                }
                const item x = after(limit);
                pq_.limit_push(x, unsigned(below(o_.threads)));
                ref_.insert(x);
            } else if (!ref_.empty()) {
                const item t = pq_.limit_top();
                ref_.check_next(t, "limit_top()");
                pq_.limit_pop();
                ref_.take_next(t, "limit_pop()");
                clock_ = std::max(clock_, t.key);
            } else {
                expect_throw<std::logic_error>("limit_top() on an empty queue",
                                               [&] { pq_.limit_top(); });
            }
            ++n;
        }
        if (limit.key > 0 && below(16) == 0)
            expect_throw<std::invalid_argument>("limit_push() before the limit", [&] {
                pq_.limit_push(item{limit.key - 1, ++serial_}, 0);
            });
        pq_.limit_end();
        check_size("limit_end()");
        done(n);
    }
    //! An item that does not come before limit.
    item after(const item& limit) {
        item x = make_item();
        if (x.key < limit.key) x.key = limit.key + below(3);
        return x;
    }
    //! limit_push of m items from each of up to num_threads std::threads with distinct ids.
    std::size_t limit_push_burst(const item& limit, std::size_t m) {
        const unsigned t = 1 + unsigned(below(o_.threads));
        std::vector<item> items(m * t);
        for (item& x : items) x = after(limit);
        on_threads(t, [&](unsigned id) {
            for (std::size_t i = id * m; i < (id + 1) * m; ++i) pq_.limit_push(items[i], id);
        });
        ref_.insert(items.begin(), items.end());
        return items.size();
    }

    //! size, empty, top, stats and layout against the model.
    void inspect() {
        call_name_ = "inspect";
        check_size("size()");
        if (pq_.empty() != ref_.empty()) throw mismatch("empty() disagrees with the model");
        if (!ref_.empty()) ref_.check_next(pq_.top(), "top()");
        const emflow::ppq_stats s = pq_.stats();
        if (s.items_in_ram + s.items_on_disk != ref_.size())
            throw mismatch("stats(): items_in_ram + items_on_disk != size");
        if (s.peak_memory_bytes > pq_.layout().memory_bytes)
            throw mismatch("stats(): peak_memory_bytes " + std::to_string(s.peak_memory_bytes) +
                           " over memory_bytes");
        if (pq_.layout().threads != o_.threads || pq_.layout().memory_bytes != o_.budget_mib << 20)
            throw mismatch("layout() does not match the options");
        done(1);
    }

    //! Calls that must throw and leave the queue unchanged.
    void misuse() {
        call_name_ = "misuse";
        const item x = make_item();
        if (ref_.empty()) {
            expect_throw<std::logic_error>("pop() on empty", [&] { pq_.pop(); });
            expect_throw<std::logic_error>("top() on empty", [&] { pq_.top(); });
        }
        expect_throw<std::logic_error>("bulk_push() outside a bulk phase",
                                       [&] { pq_.bulk_push(x, 0); });
        expect_throw<std::logic_error>("bulk_push_end() outside a bulk phase",
                                       [&] { pq_.bulk_push_end(); });
        expect_throw<std::logic_error>("limit_end() outside a limit phase",
                                       [&] { pq_.limit_end(); });
        pq_.bulk_push_begin(below(1000));
        expect_throw<std::logic_error>("push() in a bulk phase", [&] { pq_.push(x); });
        expect_throw<std::logic_error>("bulk_pop() in a bulk phase",
                                       [&] { pq_.bulk_pop(out_, 10); });
        expect_throw<std::logic_error>("nested bulk_push_begin()",
                                       [&] { pq_.bulk_push_begin(10); });
        expect_throw<std::logic_error>("bulk_push() with id num_threads",
                                       [&] { pq_.bulk_push(x, o_.threads); });
        pq_.bulk_push_end();  // an empty bulk phase
        check_size("misuse");
        done(1);
    }
    template <class E, class F>
    void expect_throw(const char* what, F f) {
        const std::size_t before = ref_.size();
        try {
            f();
        } catch (const E&) {
            if (pq_.size() != before) throw mismatch(std::string(what) + " changed the size");
            return;
        }
        throw mismatch(std::string(what) + " did not throw");
    }

    // ---- checks ----
    void take_all(const char* what) {
        for (const item& x : out_) {
            ref_.take_next(x, what);
            clock_ = std::max(clock_, x.key);
        }
        check_size(what);
        done(out_.size());
    }
    void check_size(const char* what) {
        if (pq_.size() != ref_.size())
            throw mismatch(std::string("size() ") + std::to_string(pq_.size()) + " after " + what +
                           ", model holds " + std::to_string(ref_.size()));
    }
    void done(std::size_t items) { ops_ += std::max<std::size_t>(items, 1); }

    void drain() {
        call_name_ = "final drain";
        while (!ref_.empty()) {
            ++calls_;
            pq_.bulk_pop(out_, batch(batch_));
            if (out_.empty()) throw mismatch("bulk_pop() gave nothing, model not empty");
            take_all("bulk_pop() (drain)");
        }
        if (!pq_.empty() || pq_.size() != 0) throw mismatch("queue not empty after the drain");
    }
    void report(double seconds) const {
        std::cerr << "ppq_soak: " << o_.budget_mib << " MiB, " << o_.threads << " threads: " << ops_
                  << "/" << o_.ops << " ops, call " << calls_ << ", size " << ref_.size()
                  << (growing_ ? " (growing to " : " (draining from ") << crest_ << "), "
                  << std::size_t(double(ops_) / seconds) << " ops/s\n";
    }

    options o_;
    std::mt19937_64 rng_;
    queue pq_;
    model ref_;
    std::vector<item> out_;
    const std::size_t crest_;  // queue size at which a wave turns to draining
    const std::size_t batch_;  // the largest batch of one call
    pattern pattern_ = pattern::random;
    bool growing_ = true;
    std::uint64_t clock_ = 0;  // the largest key extracted (the clock pattern pushes after it)
    std::uint64_t serial_ = 0;
    std::uint64_t ops_ = 0;
    std::uint64_t calls_ = 0;
    std::size_t max_items_ = 0;
    const char* call_name_ = "start";
    std::map<std::string, std::uint64_t> by_kind_;
};

}  // namespace soak
