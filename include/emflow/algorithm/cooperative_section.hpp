// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/cooperative_section.hpp: a critical section whose waiters help instead of
// blocking.
//
// The queue adds sorted runs one at a time, and an add may flush all internal arrays to disk: a
// parallel multiway merge of much of the budget. A thread that waited for such an add on a plain
// mutex would leave its core idle for the whole merge. Here the running turn shares its parallel
// loops (for_each) with the threads waiting for a turn: they run loop iterations until the turn
// ends, then take their own turn. Helping is plain work sharing over an atomic counter, so the
// helpers may be any threads (oneTBB workers of any arena, plain or OpenMP threads): waiting
// inside oneTBB (collaborative_call_once) deadlocked when helper and owner were in different
// arenas.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>

namespace emflow::algorithm {

//! A critical section whose waiting threads run iterations of the running turn's parallel
//! loops instead of blocking.
class cooperative_section {
public:
    //! Runs f() while no other function of this section runs; while waiting, the calling
    //! thread runs iterations of the running turn's loops. f must not call run() itself.
    template <class F>
    void run(F&& f) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            while (busy_) {
                if (loop_ && loop_->next.load() < loop_->n)
                    help(lock);
                else
                    changed_.wait(lock);
            }
            busy_ = true;
        }
        struct end_turn {
            cooperative_section& s;
            ~end_turn() {
                {
                    std::lock_guard<std::mutex> lock(s.mutex_);
                    s.busy_ = false;
                }
                s.changed_.notify_all();
            }
        } end{*this};
        f();
    }

    //! Inside a turn: calls body(0) .. body(n-1), shared between the threads that `spread`
    //! runs its argument on (at least the calling thread) and the threads waiting for a turn.
    //! Rethrows the first exception of an iteration (the others still run).
    template <class Body, class Spread>
    void for_each(std::size_t n, Body&& body, Spread&& spread) {
        loop l(n, body);
        bool shared;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            shared = busy_ && !loop_;  // outside a turn or nested: nobody to share with
            if (shared) loop_ = &l;
        }
        if (!shared) {
            spread([&] { claim(l); });
            if (l.error) std::rethrow_exception(l.error);
            return;
        }
        changed_.notify_all();
        spread([&] { claim(l); });
        std::unique_lock<std::mutex> lock(mutex_);
        loop_ = nullptr;  // no new helpers; wait for the ones still running an iteration
        changed_.wait(lock, [&] { return l.helpers == 0; });
        if (l.error) std::rethrow_exception(l.error);
    }

private:
    struct loop {
        loop(std::size_t count, std::function<void(std::size_t)> b)
            : n(count), body(std::move(b)) {}
        const std::size_t n;
        std::function<void(std::size_t)> body;
        std::atomic<std::size_t> next{0};  // the next unclaimed iteration
        std::size_t helpers = 0;           // waiting threads inside claim() (under mutex_)
        std::exception_ptr error;          // the first exception (under mutex_)
    };

    //! Runs unclaimed iterations of l until none is left.
    void claim(loop& l) {
        for (std::size_t i; (i = l.next.fetch_add(1)) < l.n;) {
            try {
                l.body(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (!l.error) l.error = std::current_exception();
            }
        }
    }
    //! A waiting thread joins the published loop (lock is held on entry and exit).
    void help(std::unique_lock<std::mutex>& lock) {
        loop& l = *loop_;
        ++l.helpers;
        lock.unlock();
        claim(l);
        lock.lock();
        if (--l.helpers == 0) changed_.notify_all();
    }

    std::mutex mutex_;                 // everything below
    std::condition_variable changed_;  // a turn ended, a loop was published or finished
    bool busy_ = false;                // a turn is running
    loop* loop_ = nullptr;             // the running turn's published loop
};

}  // namespace emflow::algorithm
