// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/dag.hpp: a DAG in external vectors and the value of its nodes, the input
// of the time-forward processing demo.
//
// Nodes are 0..n-1 in topological order: every edge goes from a lower to a higher node id, and
// the edge vector is sorted by source. A node's value is a max-plus longest-path label:
//   value(v) = input(v) + max(0, max over edges (u, v) of value(u) + weight(u, v))
// plus a deterministic 0 or 1 computed by `work` rounds of hashing, so the per-node CPU cost of
// an evaluation can be dialled up (0 rounds: no extra term).
#pragma once

#include <stxxl/vector>

#include <algorithm>
#include <cstdint>
#include <emflow/hash.hpp>
#include <limits>

namespace emflow::pipelines::tfp {

//! An edge from `source` to `target` (source < target) with a weight.
struct dag_edge {
    std::uint64_t source;  //!< the lower node id
    std::uint64_t target;  //!< the higher node id
    std::int64_t weight;   //!< added to the source's value along this edge
};

//! External vector of node inputs (small blocks: many of them may be open at once).
using node_vector = stxxl::VECTOR_GENERATOR<std::int64_t, 1, 2, 1 << 20>::result;
//! External vector of edges, sorted by source.
using edge_vector = stxxl::VECTOR_GENERATOR<dag_edge, 1, 2, 3 << 19>::result;
//! External vector of node values (the result of an evaluation).
using value_vector = node_vector;

//! "No predecessor" for the best-predecessor argument of node_value.
inline constexpr std::int64_t no_predecessor = std::numeric_limits<std::int64_t>::min();

//! `work` rounds of splitmix64 over x, reduced to one bit: the dialled-up CPU cost of a node.
inline std::int64_t busy_bit(std::uint64_t x, unsigned work) {
    if (work == 0) return 0;
    for (unsigned i = 0; i < work; ++i) {
        x = splitmix64(x);
    }
    return std::int64_t(x & 1);
}

//! The value of a node with the given input whose best predecessor offers `best_pred`
//! (max over in-edges of value(u) + weight), or no_predecessor for a source node.
inline std::int64_t node_value(std::int64_t input, std::int64_t best_pred, unsigned work) {
    return input + std::max<std::int64_t>(0, best_pred) + busy_bit(std::uint64_t(input), work);
}

}  // namespace emflow::pipelines::tfp
