// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/detail/queue_budget.hpp: what a graph's budget counts for a priority queue its
// nodes use (pq_source, bulk_push_session): the queue's whole budget, declared once per run.
#pragma once

#include <emflow/flow_runtime.hpp>
#include <emflow/memory_budget.hpp>

namespace emflow::detail {

//! The name under which a graph's memory plan (and a budget error) lists the queue: the queue
//! holds its own budget (ppq_options::memory_bytes) throughout, so the graph's budget must
//! include all of it.
inline constexpr const char* queue_budget_name =
    "priority queue's whole budget (ppq_options::memory_bytes)";

//! Declares q's whole budget to ctx's plan as a run-long consumer.
template <class Queue>
void declare_queue_budget(run_context& ctx, const Queue& q) {
    ctx.memory().declare_run_long(queue_budget_name, memory_demand::fixed(q.layout().memory_bytes));
}

}  // namespace emflow::detail
