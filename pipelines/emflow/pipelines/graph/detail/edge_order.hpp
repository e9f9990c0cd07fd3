// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/edge_order.hpp: an edge record as the builder sorts it, and its
// order (source, target, weight) in the form STXXL's sorter wants (with sentinels).
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

namespace emflow::pipelines::graph::detail {

//! A directed edge while a graph is built.
struct raw_edge {
    std::uint32_t source;  //!< tail
    std::uint32_t target;  //!< head
    std::uint32_t weight;  //!< weight (1 for unweighted inputs)
};

//! By source, then target, then weight: parallel edges end up adjacent, lightest first.
struct by_source_target {
    //! a before b.
    bool operator()(const raw_edge& a, const raw_edge& b) const {
        return std::tie(a.source, a.target, a.weight) < std::tie(b.source, b.target, b.weight);
    }
    //! Sentinel before every edge.
    static raw_edge min_value() { return {0, 0, 0}; }
    //! Sentinel after every edge.
    static raw_edge max_value() {
        constexpr std::uint32_t m = std::numeric_limits<std::uint32_t>::max();
        return {m, m, m};
    }
};

}  // namespace emflow::pipelines::graph::detail
