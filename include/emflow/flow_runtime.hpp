// SPDX-License-Identifier: BSL-1.0
// emflow/flow_runtime.hpp: the parallel runtime of flow graphs, on oneTBB.
//
// One process-wide tbb::task_arena runs every pipeline segment and every parallel sort, so the
// cores are never oversubscribed however many async nodes and sorters a graph has. materialize()
// creates a run_context (a task_group plus the first error) and starts the graph; async nodes run
// their segments as tasks that fill (or drain) ONE buffer and return, and are spawned again when
// a free buffer exists. A node that must wait (a consumer for a full buffer, a producer for a free
// one, a sorter's reader for its input to end) suspends its task with tbb::task::suspend: the
// thread goes on executing other pending tasks and the task is resumed when the event happens.
// No thread spins or blocks, so any number of async nodes runs on any number of threads
// (down to 1) without deadlock. See docs/flow-graphs.md for the design and bench/flow/README.md
// for its measured cost.
//
// A run may have its own budget and threads (run_options): the nodes declare their memory while
// the graph is started, tasks spawned meanwhile are held, the budget is assigned
// (emflow/memory_budget.hpp), and only then the held tasks run. With threads, the run gets an
// arena of that many threads instead of the shared one.
#pragma once

#include <emflow/memory_budget.hpp>

#include <oneapi/tbb/task.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace emflow {

//! Thrown inside a graph's segments once another segment failed; materialize() replaces it by
//! the original error.
class flow_cancelled : public std::runtime_error {
public:
    flow_cancelled() : std::runtime_error("emflow: flow graph cancelled") {}
};

namespace detail {

inline int& flow_concurrency_setting() {
    static int n = 0;
    return n;
}

}  // namespace detail

//! Sets the number of threads of the shared arena; call before the first graph runs
//! (0: $EMFLOW_THREADS, else all hardware threads).
inline void set_flow_concurrency(int threads) { detail::flow_concurrency_setting() = threads; }

//! The process-wide arena that runs all segments and parallel sorts.
inline tbb::task_arena& flow_arena() {
    static tbb::task_arena arena([] {
        int n = detail::flow_concurrency_setting();
        if (n <= 0)
            if (const char* s = std::getenv("EMFLOW_THREADS"); s && *s) n = std::atoi(s);
        if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        return n;
    }());
    return arena;
}

class run_context;

//! A condition that tasks wait for by suspending; guarded by the owner's mutex.
class wait_point {
public:
    //! Waits (lock held on entry and exit) until ready() or the graph is cancelled; then throws
    //! flow_cancelled if cancelled.
    template <class Ready>
    void wait(std::unique_lock<std::mutex>& lock, run_context& ctx, Ready ready);
    //! Resumes every waiter; call with the owner's mutex held.
    void notify_all() {
        for (auto sp : waiters_) tbb::task::resume(sp);
        waiters_.clear();
    }

private:
    std::vector<tbb::task::suspend_point> waiters_;
};

//! One execution of a flow graph: its task group, its first error and its waiters.
class run_context {
public:
    //! A run without a budget (every node uses its own size or its default).
    run_context() = default;
    //! A run under opt's budget, reporting to opt.report.
    explicit run_context(const run_options& opt) : memory_(opt.memory_bytes, opt.report) {}
    run_context(const run_context&) = delete;
    run_context& operator=(const run_context&) = delete;

    //! Runs f as a task of this graph (held while the graph is being started); an exception
    //! from f cancels the graph.
    template <class F>
    void spawn(F&& f) {
        auto task = [this, f = std::forward<F>(f)] {
            if (cancelled()) return;
            try {
                f();
            } catch (...) {
                fail(std::current_exception());
            }
        };
        if (starting_)
            held_.emplace_back(std::move(task));
        else
            group_.run(std::move(task));
    }

    //! The run's memory declarations and budget.
    memory_plan& memory() { return memory_; }
    //! A number unique to this run in the process (nodes reused by a later run tell it apart).
    std::uint64_t id() const { return id_; }

    //! Ends the start of the graph: assigns the memory (config_error if the budget is too
    //! small, before any work), then runs the tasks spawned meanwhile.
    void started() {
        starting_ = false;
        memory_.assign();
        for (auto& t : held_) group_.run(std::move(t));
        held_.clear();
    }

    //! Records the first error, cancels the graph and wakes every waiting task.
    void fail(std::exception_ptr e) {
        std::vector<std::pair<std::mutex*, wait_point*>> points;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!error_ && !is_cancellation(e)) error_ = e;
            cancelled_.store(true);
            points = points_;
        }
        for (auto [m, wp] : points) {
            std::lock_guard<std::mutex> lock(*m);
            wp->notify_all();
        }
    }

    //! True once a segment failed.
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

    //! Registers a wait point (guarded by mutex m) to be woken on cancellation.
    void register_wait_point(std::mutex& m, wait_point& wp) {
        std::lock_guard<std::mutex> lock(mutex_);
        points_.emplace_back(&m, &wp);
    }

    //! Waits for every task; call from materialize() in the arena.
    void wait_all() { group_.wait(); }

    //! The first error, if any.
    std::exception_ptr error() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return error_;
    }

private:
    static bool is_cancellation(std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (const flow_cancelled&) {
            return true;
        } catch (...) {
            return false;
        }
    }

    static std::uint64_t next_id() {
        static std::atomic<std::uint64_t> n{0};
        return ++n;
    }

    std::uint64_t id_ = next_id();
    memory_plan memory_;
    bool starting_ = true;  // tasks spawned now are held until started()
    std::vector<std::function<void()>> held_;
    tbb::task_group group_;
    mutable std::mutex mutex_;
    std::exception_ptr error_;
    std::atomic<bool> cancelled_{false};
    std::vector<std::pair<std::mutex*, wait_point*>> points_;
};

template <class Ready>
void wait_point::wait(std::unique_lock<std::mutex>& lock, run_context& ctx, Ready ready) {
    while (!ready() && !ctx.cancelled()) {
        std::mutex* m = lock.mutex();
        lock.unlock();
        tbb::task::suspend([&](tbb::task::suspend_point sp) {
            std::lock_guard<std::mutex> guard(*m);
            if (ready() || ctx.cancelled())
                tbb::task::resume(sp);
            else
                waiters_.push_back(sp);
        });
        lock.lock();
    }
    if (ctx.cancelled()) throw flow_cancelled();
}

//! Starts a graph (start(ctx)), assigns its memory, runs its driver (drive(ctx)) in the shared
//! arena or, with opt.threads, in an arena of its own: waits for every task, and rethrows the
//! first error of any segment (the original one, not a flow_cancelled). A budget too small is
//! a config_error thrown before any task ran.
template <class Start, class Drive>
void run_graph(Start&& start, Drive&& drive, const run_options& opt = {}) {
    auto body = [&] {
        run_context ctx(opt);
        start(ctx);  // throws before any task ran: nothing to wait for
        ctx.started();
        if (opt.memory) opt.memory->phases = ctx.memory().phases();
        try {
            drive(ctx);
        } catch (...) {
            ctx.fail(std::current_exception());
        }
        ctx.wait_all();
        if (opt.memory) opt.memory->peak_held = ctx.memory().peak_held();
        if (auto e = ctx.error()) std::rethrow_exception(e);
        if (ctx.cancelled()) throw flow_cancelled();
    };
    if (opt.threads > 0) {
        tbb::task_arena arena(opt.threads);
        arena.execute(body);
    } else {
        flow_arena().execute(body);
    }
}

//! The least budget (run_options::memory_bytes) a run of the graph started by start(ctx) accepts
//! (memory_plan::least_bytes). Starts the graph, so its inputs are opened, but runs no task.
template <class Start>
std::size_t least_budget(Start&& start) {
    std::size_t least = 0;
    flow_arena().execute([&] {
        run_context ctx{run_options{}};
        start(ctx);
        least = ctx.memory().least_bytes();
    });
    return least;
}

}  // namespace emflow
