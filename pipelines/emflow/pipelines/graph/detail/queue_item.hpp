// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/queue_item.hpp: the items of the search queue (priority,
// vertex) and their orders.
#pragma once

#include <cstdint>

namespace emflow::pipelines::graph::detail {

//! A vertex and its priority (the tentative distance; A*: plus the heuristic), and the vertex
//! whose relaxation pushed it: its parent if the item is the one that settles it.
struct queue_item {
    std::uint64_t key;     //!< priority
    std::uint64_t vertex;  //!< low 32 bits: the vertex; high 32: the parent (~0u: the source)
};

//! The item of vertex v with key, pushed by parent.
inline queue_item make_item(std::uint64_t key, std::uint32_t v, std::uint32_t parent) {
    return {key, std::uint64_t(parent) << 32 | v};
}
//! The item's vertex.
inline std::uint32_t vertex_of(const queue_item& x) { return std::uint32_t(x.vertex); }
//! The vertex that pushed the item.
inline std::uint32_t parent_of(const queue_item& x) { return std::uint32_t(x.vertex >> 32); }

//! The queue's Compare: the greatest is the smallest key (then vertex), a min-queue.
struct later_key {
    //! a after b.
    bool operator()(const queue_item& a, const queue_item& b) const {
        return a.key > b.key || (a.key == b.key && a.vertex > b.vertex);
    }
};

//! By vertex (not parent), smallest key first: a bulk in the order the graph file is read.
struct by_vertex {
    //! a before b.
    bool operator()(const queue_item& a, const queue_item& b) const {
        return vertex_of(a) < vertex_of(b) || (vertex_of(a) == vertex_of(b) && a.key < b.key);
    }
};

}  // namespace emflow::pipelines::graph::detail
