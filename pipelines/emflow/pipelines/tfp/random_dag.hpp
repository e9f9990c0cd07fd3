// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/random_dag.hpp: random DAGs of several shapes for the time-forward
// evaluation, written into external vectors (node inputs, and edges sorted by source, every edge
// from a lower to a higher id): inputs for the tests, the benchmarks and the tfp_dag example.
//
//   namespace tfp = emflow::pipelines::tfp;
//   tfp::node_vector inputs;  tfp::edge_vector edges;
//   tfp::dag_spec spec;  spec.shape = tfp::dag_shape::random_local;
//   spec.nodes = 1 << 20;  spec.degree = 3;  spec.span = 1 << 12;
//   tfp::generate_dag(spec, seed, inputs, edges);
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/pipelines/tfp/dag.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace emflow::pipelines::tfp {

//! The kinds of DAG generate_dag() makes (0 or 1 nodes give the empty and single-node graphs).
enum class dag_shape {
    chain,         //!< i -> i+1: every bulk has one node ready, the worst case for parallelism
    wide_layers,   //!< layers of layer_width nodes, `degree` edges from each node into the next
                   //!< layer
    random_local,  //!< `degree` edges on average from u into (u, u+span]; density varies by region
    random         //!< `degree` edges on average from u into (u, n)
};

//! What generate_dag() makes.
struct dag_spec {
    dag_shape shape = dag_shape::random_local;  //!< the kind of graph
    std::uint64_t nodes = 0;                    //!< number of nodes
    unsigned degree = 2;                        //!< (average) out-degree
    std::uint64_t span = 1024;                  //!< random_local: farthest target distance
    std::uint64_t layer_width = 1024;           //!< wide_layers: nodes per layer
    std::uint64_t region = 0;  //!< random_local: if > 0, regions of this many nodes get out-degrees
                               //!< scaled by a random power of two in [1/4, 4] (varying density)
    std::int64_t max_input = 1000;   //!< node inputs uniform in [0, max_input]
    std::int64_t max_weight = 1000;  //!< edge weights uniform in [0, max_weight]
};

//! Fills `inputs` (resized to spec.nodes) and appends the edges to `edges` (cleared first),
//! sorted by source, deterministically from `seed`.
template <typename NodeVector, typename EdgeVector>
void generate_dag(const dag_spec& spec, std::uint64_t seed, NodeVector& inputs, EdgeVector& edges) {
    if (spec.shape == dag_shape::wide_layers && spec.layer_width == 0)
        throw std::invalid_argument(
            "emflow::pipelines::tfp::generate_dag: layer_width must be >= 1");
    if (spec.shape == dag_shape::random_local && spec.span == 0)
        throw std::invalid_argument("emflow::pipelines::tfp::generate_dag: span must be >= 1");
    emflow::ensure_external_memory();
    std::mt19937_64 rng(seed);
    const std::uint64_t n = spec.nodes;

    inputs.clear();
    inputs.resize(n);
    {
        typename NodeVector::bufwriter_type out(inputs);
        std::uniform_int_distribution<std::int64_t> input(0, spec.max_input);
        for (std::uint64_t v = 0; v < n; ++v) out << input(rng);
        out.finish();
    }

    // push_back, not a bufwriter: STXXL 1.4.1's vector_bufwriter loses blocks when it has to
    // grow the vector, and the number of edges is not known in advance.
    edges.clear();
    std::uniform_int_distribution<std::int64_t> weight(0, spec.max_weight);
    std::vector<std::uint64_t> targets;
    unsigned region_degree = spec.degree;
    for (std::uint64_t u = 0; u + 1 < n; ++u) {
        targets.clear();
        switch (spec.shape) {
            case dag_shape::chain:
                targets.push_back(u + 1);
                break;
            case dag_shape::wide_layers: {
                const std::uint64_t next = (u / spec.layer_width + 1) * spec.layer_width;
                if (next >= n) break;
                std::uniform_int_distribution<std::uint64_t> pick(
                    next, std::min(n, next + spec.layer_width) - 1);
                for (unsigned i = 0; i < spec.degree; ++i) targets.push_back(pick(rng));
                break;
            }
            case dag_shape::random_local:
            case dag_shape::random: {
                if (spec.region && u % spec.region == 0) {
                    const int scale = std::uniform_int_distribution<int>(-2, 2)(rng);
                    region_degree = scale >= 0 ? spec.degree << scale : spec.degree >> -scale;
                }
                const std::uint64_t last =
                    spec.shape == dag_shape::random ? n - 1 : std::min(n - 1, u + spec.span);
                std::uniform_int_distribution<std::uint64_t> pick(u + 1, last);
                const unsigned d =
                    std::uniform_int_distribution<unsigned>(0, 2 * region_degree)(rng);
                for (unsigned i = 0; i < d; ++i) targets.push_back(pick(rng));
                break;
            }
        }
        std::sort(targets.begin(), targets.end());
        for (std::uint64_t t : targets) edges.push_back(dag_edge{u, t, weight(rng)});
    }
}

}  // namespace emflow::pipelines::tfp
