// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/pq_source.hpp: the pull side of a parallel_priority_queue as a source node. It
// emits the queue's items in pop order through the batch interface, refilled by
// bulk_pop(max) or, with a limit, by bulk_pop_limit(limit, max), so downstream sorters,
// scanners and materialize read whole batches (plain pointers into the node's buffer).
//
//   materialize(pq_source(pq, 1 << 16) | transform(f), out);      // everything, in pop order
//   materialize(pq_source_until(pq, limit), out);                  // the items before limit
//   materialize(pq_source_first(pq, k), out);                      // the top k
//
// The node pops as it goes: items it emitted are gone from the queue, items it did not reach
// stay. A refill pops a whole batch, so a top-k takes pq_source_first(pq, k), which pops no
// more than k items, rather than pq_source(pq) | take(k), which may pop a batch past them. Only
// this node may use the queue while the graph runs.
//
// Memory: the graph's budget (run_options::memory_bytes) counts the queue's whole budget
// (ppq_options::memory_bytes), which the queue holds throughout, besides the node's batch: a
// graph reading a queue of 64 MiB needs a budget above 64 MiB.
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/detail/queue_budget.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

namespace emflow {

//! Pull node over a priority queue's bulk extraction.
template <class Queue>
class pq_source_node : public pull_base<pq_source_node<Queue>, typename Queue::value_type> {
    using T = typename Queue::value_type;
    friend class pull_base<pq_source_node, T>;

public:
    //! Emits up to `batch` items per refill, at most max_items in all; with a limit, only the
    //! items before it.
    pq_source_node(Queue& q, std::size_t batch, std::optional<T> limit,
                   std::uint64_t max_items = std::numeric_limits<std::uint64_t>::max())
        : queue_(q), batch_(batch), limit_(std::move(limit)), left_(max_items) {
        if (batch == 0) throw std::invalid_argument("emflow::pq_source: batch must be >= 1");
    }

    //! Reserves the batch buffer; declares it and the queue's whole budget (held by the queue
    //! throughout) to the run's memory plan.
    void start(run_context& ctx) {
        detail::declare_queue_budget(ctx, queue_);
        ctx.memory().declare_run_long("pq_source batch", memory_demand::fixed(batch_ * sizeof(T)));
        buf_.reserve(batch_);
    }

private:
    //! The next items in pop order; none once the queue (or its part before the limit) is
    //! exhausted or max_items were emitted.
    std::pair<const T*, const T*> next_batch() {
        buf_.clear();
        if (limit_done_ || left_ == 0) return {nullptr, nullptr};
        const std::size_t max = std::size_t(std::min<std::uint64_t>(batch_, left_));
        if (limit_)
            limit_done_ = queue_.bulk_pop_limit(buf_, *limit_, max);
        else
            queue_.bulk_pop(buf_, max);
        left_ -= buf_.size();
        return {buf_.data(), buf_.data() + buf_.size()};
    }

    Queue& queue_;
    std::size_t batch_;
    std::optional<T> limit_;
    std::uint64_t left_;  // items still to emit at the most
    std::vector<T> buf_;
    bool limit_done_ = false;  // bulk_pop_limit said no item before the limit is left
};

//! A source emitting all of q's items in pop order, refilled by bulk_pop(batch).
template <class Queue>
pq_source_node<Queue> pq_source(Queue& q, std::size_t batch = default_chunk) {
    return pq_source_node<Queue>(q, batch, std::nullopt);
}

//! A source emitting q's items that come before `limit` in pop order, refilled by
//! bulk_pop_limit(limit, batch); the others stay in q.
template <class Queue>
pq_source_node<Queue> pq_source_until(Queue& q, const typename Queue::value_type& limit,
                                      std::size_t batch = default_chunk) {
    return pq_source_node<Queue>(q, batch, limit);
}

//! A source emitting q's first k items in pop order (all of them if q holds fewer), refilled by
//! bulk_pop(min(batch, items left)): it pops no more than k, the others stay in q.
template <class Queue>
pq_source_node<Queue> pq_source_first(Queue& q, std::uint64_t k,
                                      std::size_t batch = default_chunk) {
    return pq_source_node<Queue>(q, batch, std::nullopt, k);
}

}  // namespace emflow
