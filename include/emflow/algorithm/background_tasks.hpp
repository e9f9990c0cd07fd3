// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/background_tasks.hpp: the queue's background insertion tasks of a bulk phase.
//
// A pusher whose insertion heap is full hands it to a oneTBB task in its own arena and goes on
// producing (see ppq.hpp, "Overlap"). The heaps in flight hold RAM, so the number of tasks is
// bounded by slots that the queue opens once per bulk phase; a task frees its slot when it
// ends. The bulk phase's first exception (of a task, or of a pusher's own flush) is kept for the
// queue to rethrow to every pusher; waiting threads help in the tasks' arena.
#pragma once

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

namespace emflow::algorithm {

//! The queue's background insertion tasks of one bulk phase: bounded slots, and the phase's
//! first exception kept for every pusher.
class background_tasks {
public:
    //! Closes the slots (at the start of a bulk phase; no task may be running).
    void close() {
        max_ = 0;
        opened_.store(false);
    }
    //! Opens `slots` slots; tasks may run from now on.
    void open(unsigned slots) {
        max_ = slots;
        opened_.store(true, std::memory_order_release);
    }
    //! True once open() was called in this bulk phase.
    bool opened() const { return opened_.load(std::memory_order_acquire); }
    //! Takes a slot for one task (after opened()); false if all are taken.
    bool take_slot() {
        unsigned n = running_.load(std::memory_order_relaxed);
        while (n < max_ && !running_.compare_exchange_weak(n, n + 1)) {
        }
        return n < max_;
    }
    //! Runs f() (a const call) in an isolated oneTBB task of the calling thread's arena, in a
    //! slot taken before, which is freed when f returns. If f throws, the exception is kept (if
    //! it is the first), then failed() is called.
    template <class F, class OnError>
    void run(F&& f, OnError failed) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!arena_) arena_.emplace(tbb::task_arena::attach());
        }
        group_.run([this, f = std::forward<F>(f), failed] {
            // isolated: a task waiting for its parallel sort must not pick up a producer (which
            // would delay it) or another background task
            tbb::this_task_arena::isolate([&] {
                try {
                    f();
                } catch (...) {
                    keep_error(std::current_exception());
                    failed();
                }
            });
            running_.fetch_sub(1);
        });
    }
    //! Waits for every task; the waiting thread helps in their arena.
    void wait() const {
        if (!arena_) return;
        arena_->execute([&] { group_.wait(); });
        arena_.reset();
    }
    //! Keeps e if it is the bulk phase's first error (a task's, or a pusher's own flush's).
    void keep_error(std::exception_ptr e) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::move(e);
    }
    //! The bulk phase's first error (null if none).
    std::exception_ptr error() {
        std::lock_guard<std::mutex> lock(mutex_);
        return error_;
    }
    //! Returns the bulk phase's first error and forgets it.
    std::exception_ptr take_error() {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::exchange(error_, nullptr);
    }

private:
    mutable tbb::task_group group_;
    mutable std::optional<tbb::task_arena> arena_;  // where the tasks run
    std::atomic<unsigned> running_{0};              // slots taken
    unsigned max_ = 0;                              // slots opened (set before opened_)
    std::atomic<bool> opened_{false};
    std::mutex mutex_;  // arena_ and error_
    std::exception_ptr error_;
};

}  // namespace emflow::algorithm
