// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/queue_clock.hpp: the time eSAIS's passes spend in their priority
// queue, for the benchmark's share of the inducing time that the queue takes. A pass's queue is
// wrapped in timed_queue, which reads the clock around each bulk pop and each bulk push phase's
// end (where the bulk-parallel queue does its insertion work); single pushes (the sequential
// queue's whole insertion, the bulk-parallel queue's heap insertions) are timed one in about
// push_sample and scaled up, so that the clock stays out of the per-item cost. The gaps between
// timed pushes are random: at a fixed gap, a queue that flushes a full heap every multiple of it
// (a heap of a power of two items) would have every flush timed and counted push_sample times.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa {

//! Seconds eSAIS's passes spent in their priority queues since the process started (pops and
//! bulk ends measured, single pushes sampled).
struct esais_queue_time {
    double naming = 0;    //!< the passes that name the S*-substrings
    double inducing = 0;  //!< the passes that induce the suffix (and LCP) array
};

namespace detail::esais {

//! The process's queue nanoseconds: [0] naming passes, [1] inducing passes.
inline std::atomic<std::uint64_t> queue_nanoseconds[2];

//! True if Queue has push_sorted(std::vector<value_type>&&) (the bulk-parallel queue).
template <class Queue, class = void>
struct has_push_sorted : std::false_type {};
template <class Queue>
struct has_push_sorted<Queue, std::void_t<decltype(std::declval<Queue&>().push_sorted(
                                  std::declval<std::vector<typename Queue::value_type>&&>()))>>
    : std::true_type {};

//! Queue of T (the bulk interface of induce_pass) with the time spent in it added to
//! queue_nanoseconds[Slot] when the wrapper is destroyed.
template <class T, class Queue, unsigned Slot>
class timed_queue {
    using clock = std::chrono::steady_clock;
    static constexpr unsigned push_sample = 64;

public:
    using value_type = T;  //!< item type
    //! True if runs in pop order may be pushed whole (push_sorted).
    static constexpr bool takes_sorted_runs = has_push_sorted<Queue>::value;

    //! Times calls into q.
    explicit timed_queue(Queue& q) : q_(q) {}
    timed_queue(const timed_queue&) = delete;
    timed_queue& operator=(const timed_queue&) = delete;
    ~timed_queue() {
        queue_nanoseconds[Slot] += std::uint64_t(spent_.count()) + sampled_push_nanoseconds();
    }

    //! True if there are no items.
    bool empty() const { return q_.empty(); }
    //! The next item.
    const value_type& top() const { return q_.top(); }
    //! As Queue::bulk_pop_limit, timed.
    bool bulk_pop_limit(std::vector<value_type>& out, const value_type& limit, std::size_t max) {
        const auto t0 = clock::now();
        const bool last = q_.bulk_pop_limit(out, limit, max);
        spent_ += clock::now() - t0;
        return last;
    }
    //! As Queue::bulk_push_begin, timed.
    void bulk_push_begin(std::size_t n) {
        const auto t0 = clock::now();
        q_.bulk_push_begin(n);
        spent_ += clock::now() - t0;
    }
    //! As Queue::bulk_push; one push in push_sample timed.
    void bulk_push(const value_type& x, unsigned thread) {
        ++pushes_;
        if (--until_timed_ != 0) return q_.bulk_push(x, thread);
        until_timed_ = next_gap();
        ++timed_;
        const auto t0 = clock::now();
        q_.bulk_push(x, thread);
        sampled_ += clock::now() - t0;
    }
    //! As Queue::push_sorted, timed.
    void push_sorted(std::vector<value_type>&& run) {
        const auto t0 = clock::now();
        q_.push_sorted(std::move(run));
        spent_ += clock::now() - t0;
    }
    //! As Queue::bulk_push_end, timed.
    void bulk_push_end() {
        const auto t0 = clock::now();
        q_.bulk_push_end();
        spent_ += clock::now() - t0;
    }

private:
    std::uint64_t sampled_push_nanoseconds() const {
        return timed_ ? std::uint64_t(double(sampled_.count()) * double(pushes_) / double(timed_))
                      : 0;
    }
    //! Pushes up to the next timed one: uniform in [1, 2 push_sample - 1].
    unsigned next_gap() {
        return std::uniform_int_distribution<unsigned>(1, 2 * push_sample - 1)(rng_);
    }

    Queue& q_;
    clock::duration spent_{}, sampled_{};
    std::uint64_t pushes_ = 0, timed_ = 0;
    std::minstd_rand rng_;
    unsigned until_timed_ = push_sample;
};

}  // namespace detail::esais

//! The time eSAIS's passes spent in their priority queues in this process so far.
inline esais_queue_time esais_queue_seconds() {
    return {double(detail::esais::queue_nanoseconds[0].load()) * 1e-9,
            double(detail::esais::queue_nanoseconds[1].load()) * 1e-9};
}

}  // namespace emflow::pipelines::sa
