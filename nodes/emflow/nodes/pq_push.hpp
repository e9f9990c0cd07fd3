// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/pq_push.hpp: the push side of a parallel_priority_queue: producer pipelines feed
// the queue as one bulk-push phase, overlapped with the queue's insertion work.
//
// bulk_push_from(pq, approx, src1, src2, ...) is a primary sink like materialize: it starts the
// pipelines and pulls each in its own oneTBB task of the shared flow arena, all at once. Each
// producer hands its batches to bulk_push (one call per batch, into the insertion heap of the
// thread it runs on); a full heap goes to one of the queue's background tasks, which sorts it
// into an internal array on another core while the producer goes on (see ppq.hpp, "Overlap").
//
//   bulk_push_from(pq, n, generate(n, f) | transform(g), streamify(v));
//
// bulk_push_session(pq, approx, k) serves push edges instead: its k sink() nodes (pushed into by
// k segments, possibly concurrently) share one bulk phase, opened when the first starts and
// closed when the last gets push_stop().
//
// Errors: an exception in any producer (or in the queue, e.g. its comparator) stops every
// producer and reaches the caller after all tasks ended; the bulk phase is closed first, so the
// queue holds some of the items pushed so far (or is failed, if the queue itself threw).
//
// Memory: the graph's budget (run_options::memory_bytes) counts the queue's whole budget
// (ppq_options::memory_bytes), which the queue holds throughout, as well as the producers'.
#pragma once

#include <emflow/flow_runtime.hpp>
#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/chunked_push.hpp>
#include <emflow/nodes/detail/queue_budget.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow {

//! Settings of bulk_push_from.
struct bulk_push_options {
    //! Bulk size announced to bulk_push_begin (at most approx_size): small keeps the
    //! insertion heaps small, so sorting them overlaps production; SIZE_MAX: the paper's way.
    std::size_t overlap_bulk = 0;
};

namespace detail {

//! Checks that every thread of the flow arena has its own insertion heap in q.
template <class Queue>
void require_heap_per_thread(const Queue& q) {
    const int threads = flow_arena().max_concurrency();
    if (q.layout().threads < unsigned(threads))
        throw std::invalid_argument(
            "emflow: the queue has " + std::to_string(q.layout().threads) +
            " insertion heaps but the flow arena runs " + std::to_string(threads) +
            " threads; set ppq_options.num_threads >= " + std::to_string(threads));
}

//! Pulls src to its end (or until the graph is cancelled) into q, one bulk_push per batch.
template <class Queue, class Src>
void push_all(Queue& q, Src& src, run_context& ctx) {
    using T = typename Queue::value_type;
    chunked_push<T> chunks;
    auto insert = [&](const T* p, std::size_t k) {
        // a task may resume on another thread after waiting: the id of this batch's thread
        const int tid = tbb::this_task_arena::current_thread_index();
        q.bulk_push(p, k, tid >= 0 ? unsigned(tid) : 0u);
    };
    do {
        if (ctx.cancelled()) throw flow_cancelled();
    } while (chunks.step(src, insert));
}

//! Ends q's bulk phase after a failure without hiding the first error.
template <class Queue>
void end_bulk_quietly(Queue& q) {
    try {
        q.bulk_push_end();
    } catch (...) {
    }
}

}  // namespace detail

//! Pulls every source to its end into q as one bulk-push phase of about approx_size items,
//! the sources concurrently in oneTBB tasks, overlapped with the insertion work (file comment).
template <class Queue, class... Sources>
void bulk_push_from(Queue& q, std::size_t approx_size, const bulk_push_options& opt,
                    Sources&&... sources) {
    detail::require_heap_per_thread(q);
    bool opened = false;
    try {
        run_graph([&](run_context& ctx) { (sources.start(ctx), ...); },
                  [&](run_context& ctx) {
                      // Announcing the whole bulk would let the insertion heaps grow to hold it
                      // all, deferring every sort to bulk_push_end(), after production. A small
                      // announcement keeps the heaps at their normal size, so full heaps are sorted
                      // into internal arrays by background tasks while the producers go on.
                      q.bulk_push_begin(std::min(approx_size, opt.overlap_bulk));
                      opened = true;
                      (ctx.spawn([&q, &ctx, &sources] { detail::push_all(q, sources, ctx); }), ...);
                  });
    } catch (...) {
        if (opened) detail::end_bulk_quietly(q);
        throw;
    }
    q.bulk_push_end();
}

//! bulk_push_from with default options.
template <class Queue, class... Sources,
          std::enable_if_t<(is_pull_node_v<Sources> && ...), int> = 0>
void bulk_push_from(Queue& q, std::size_t approx_size, Sources&&... sources) {
    bulk_push_from(q, approx_size, bulk_push_options(), std::forward<Sources>(sources)...);
}

//! One bulk-push phase of a queue shared by several push edges (file comment).
template <class Queue>
class bulk_push_session {
public:
    using value_type = typename Queue::value_type;  //!< the queue's item type

    //! A push node of the session: pushes go to the insertion heap of the calling thread.
    class sink_node {
    public:
        using value_type = typename Queue::value_type;  //!< the queue's item type
        //! (made by bulk_push_session::sink)
        explicit sink_node(bulk_push_session& s) : session_(&s) {}
        //! Opens the session's bulk phase if this is the first sink started; declares the
        //! queue's budget to the run's memory plan (once per run).
        void start(run_context& ctx) {
            session_->open();
            session_->declare(ctx);
        }
        //! Inserts x.
        void push(const value_type& x) { session_->queue_.bulk_push(x); }
        //! Inserts n items.
        void push_batch(const value_type* p, std::size_t n) { session_->queue_.bulk_push(p, n); }
        //! This sink's input ended; the last one closes the bulk phase.
        void push_stop() { session_->stop_one(); }

    private:
        bulk_push_session* session_;
    };

    //! A session over q for `sinks` push sinks, bulk phase of about approx_size items.
    bulk_push_session(Queue& q, std::size_t approx_size, unsigned sinks)
        : queue_(q), approx_(approx_size), remaining_(sinks) {
        if (sinks == 0) throw std::invalid_argument("emflow::bulk_push_session: need >= 1 sink");
        detail::require_heap_per_thread(q);
    }
    bulk_push_session(const bulk_push_session&) = delete;
    bulk_push_session& operator=(const bulk_push_session&) = delete;
    //! Closes a phase left open by a failed graph.
    ~bulk_push_session() {
        if (open_ && remaining_ > 0) detail::end_bulk_quietly(queue_);
    }

    //! A push sink feeding the queue.
    sink_node sink() { return sink_node(*this); }
    //! True once every sink got push_stop() and the bulk phase is closed.
    bool finished() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return open_ && remaining_ == 0;
    }

private:
    void open() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (open_) return;
        queue_.bulk_push_begin(approx_);
        open_ = true;
    }
    void declare(run_context& ctx) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (declared_in_ == ctx.id()) return;
        declared_in_ = ctx.id();
        detail::declare_queue_budget(ctx, queue_);
    }
    void stop_one() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (remaining_ == 0)
                throw std::logic_error("emflow::bulk_push_session: too many push_stop");
            if (--remaining_ > 0) return;
        }
        // unlocked: bulk_push_end waits for the queue's background tasks, and the waiting
        // thread may run other tasks meanwhile
        queue_.bulk_push_end();
    }

    Queue& queue_;
    std::size_t approx_;
    unsigned remaining_;
    bool open_ = false;
    std::uint64_t declared_in_ = 0;  // the run the queue's budget was declared in
    mutable std::mutex mutex_;
};

}  // namespace emflow
