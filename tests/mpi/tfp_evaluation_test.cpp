// SPDX-License-Identifier: BSL-1.0
// The distributed time-forward evaluation of a DAG under 1-4 ranks gives every node the value
// of the single-process reference evaluation: chains, wide layers, local and global random
// edges, the empty and the one-node graph, windows and blocks of several sizes.
#include <catch2/catch.hpp>

#include "mpi_test_env.hpp"

#include <emflow/mpi/tfp_evaluation.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <emflow/pipelines/tfp/in_memory_evaluation.hpp>
#include <emflow/pipelines/tfp/random_dag.hpp>

using namespace emflow;
namespace tfp = emflow::pipelines::tfp;
using emflow_mpi_test::world;

namespace {

//! Evaluates spec's DAG (the same on every rank) distributed and checks this rank's values.
void check_distributed(const tfp::dag_spec& spec, std::uint64_t seed,
                       const mpi::dag_evaluation_options& cfg) {
    const auto& comm = world();
    tfp::node_vector inputs, my_inputs, my_values;
    tfp::edge_vector edges, my_edges;
    tfp::generate_dag(spec, seed, inputs, edges);
    auto reference = tfp::in_memory_evaluation(inputs, edges, cfg.work);
    mpi::select_rank_part(comm, cfg.block, inputs, edges, my_inputs, my_edges);
    auto stats = mpi::evaluate_dag(comm, inputs.size(), my_inputs, my_edges, my_values, cfg);
    REQUIRE(my_values.size() == my_inputs.size());
    std::uint64_t wrong = 0, k = 0;
    for (std::uint64_t v = 0; v < inputs.size(); ++v)
        if (mpi::dag_node_owner(v, cfg.block, comm.size()) == comm.rank())
            wrong += my_values[k++] != reference[v];
    CHECK(k == my_values.size());
    CHECK(wrong == 0);
    CHECK(stats.windows == (inputs.size() + cfg.window - 1) / cfg.window);
}

}  // namespace

TEST_CASE("distributed DAG evaluation equals the reference", "[tfp]") {
    emflow_mpi_test::configure_rank_disks();
    std::uint64_t seed = emflow_mpi_test::shared_seed(world());  // the same DAG on every rank
    mpi::dag_evaluation_options cfg;
    cfg.queue.memory_bytes = 16 << 20;
    cfg.window = 2000;
    cfg.block = 100;
    tfp::dag_spec spec;
    SECTION("random local edges") {
        spec.shape = tfp::dag_shape::random_local;
        spec.nodes = 20000;
        spec.degree = 3;
        spec.span = 500;
        check_distributed(spec, seed, cfg);
    }
    SECTION("random edges, larger window than blocks per rank") {
        spec.shape = tfp::dag_shape::random;
        spec.nodes = 8000;
        cfg.window = 5000;
        cfg.block = 7;
        check_distributed(spec, seed, cfg);
    }
    SECTION("wide layers") {
        spec.shape = tfp::dag_shape::wide_layers;
        spec.nodes = 12000;
        spec.layer_width = 300;
        check_distributed(spec, seed, cfg);
    }
    SECTION("a chain (one node per wave)") {
        spec.shape = tfp::dag_shape::chain;
        spec.nodes = 1000;  // a few collectives per node: latency-bound
        cfg.window = 50;
        check_distributed(spec, seed, cfg);
    }
    SECTION("empty and single-node graphs") {
        spec.nodes = 0;
        check_distributed(spec, seed, cfg);
        spec.nodes = 1;
        check_distributed(spec, seed, cfg);
    }
}

TEST_CASE("distributed DAG evaluation: bad input on one rank fails on every rank", "[tfp]") {
    emflow_mpi_test::configure_rank_disks();
    const auto& comm = world();
    mpi::dag_evaluation_options cfg;
    cfg.queue.memory_bytes = 16 << 20;
    cfg.window = 100;
    cfg.block = 10;
    const std::uint64_t n = 1000;
    const int bad = comm.size() - 1;
    tfp::node_vector my_inputs, my_values;
    tfp::edge_vector my_edges;
    bool planted = false;
    for (std::uint64_t v = 0; v < n; ++v)
        if (mpi::dag_node_owner(v, cfg.block, comm.size()) == comm.rank()) {
            my_inputs.push_back(std::int64_t(v % 7));
            // A chain, except for one edge of the last rank (in a later window) pointing back.
            bool backwards = comm.rank() == bad && v > 500 && !planted;
            planted |= backwards;
            if (v + 1 < n) my_edges.push_back({v, backwards ? v - 1 : v + 1, 1});
        }
    try {
        mpi::evaluate_dag(comm, n, my_inputs, my_edges, my_values, cfg);
        FAIL("no exception");
    } catch (const mpi::remote_error& e) {
        CHECK(comm.rank() != bad);
        CHECK(e.origin() == bad);
        CHECK(e.message().find("higher ids") != std::string::npos);
    } catch (const std::invalid_argument& e) {
        CHECK(comm.rank() == bad);
        CHECK(std::string(e.what()).find("higher ids") != std::string::npos);
    }
}
