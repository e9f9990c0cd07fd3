// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/queue_item.hpp: the items of the search queue (priority,
// vertex) and their orders.
#pragma once

#include <cstdint>

namespace emflow::pipelines::graph::detail {

//! A vertex and its priority (the tentative distance; A*: plus the heuristic).
struct queue_item {
    std::uint64_t key;     //!< priority
    std::uint64_t vertex;  //!< vertex id
};

//! The queue's Compare: the greatest is the smallest key (then vertex), a min-queue.
struct later_key {
    //! a after b.
    bool operator()(const queue_item& a, const queue_item& b) const {
        return a.key > b.key || (a.key == b.key && a.vertex > b.vertex);
    }
};

//! By vertex, smallest key first: a bulk in the order the graph file is read.
struct by_vertex {
    //! a before b.
    bool operator()(const queue_item& a, const queue_item& b) const {
        return a.vertex < b.vertex || (a.vertex == b.vertex && a.key < b.key);
    }
};

}  // namespace emflow::pipelines::graph::detail
