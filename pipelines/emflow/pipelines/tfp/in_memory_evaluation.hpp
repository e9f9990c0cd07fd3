// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/in_memory_evaluation.hpp: the plain in-memory evaluation of a DAG's node
// values, in node order: the reference the time-forward evaluation is checked against (by the
// tests, the benchmarks and the tfp_dag example), for DAGs whose values fit in RAM.
#pragma once

#include <emflow/pipelines/tfp/dag.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace emflow::pipelines::tfp {

//! Evaluates every node's value (dag.hpp) in RAM; throws std::invalid_argument for an edge that
//! does not go from a lower to a higher id or that is out of source order.
template <typename NodeVector, typename EdgeVector>
std::vector<std::int64_t> in_memory_evaluation(const NodeVector& inputs, const EdgeVector& edges,
                                               unsigned work = 0) {
    const std::uint64_t n = inputs.size();
    std::vector<std::int64_t> best(n, no_predecessor), value(n);
    auto edge = edges.cbegin();
    for (std::uint64_t v = 0; v < n; ++v) {
        value[v] = node_value(inputs[v], best[v], work);
        for (; edge != edges.cend() && (*edge).source == v; ++edge) {
            const dag_edge e = *edge;
            if (e.target <= v || e.target >= n)
                throw std::invalid_argument(
                    "emflow::pipelines::tfp: edge target out of order or range");
            best[e.target] = std::max(best[e.target], value[v] + e.weight);
        }
    }
    if (edge != edges.cend())
        throw std::invalid_argument("emflow::pipelines::tfp: edges not sorted by source");
    return value;
}

}  // namespace emflow::pipelines::tfp
