// SPDX-License-Identifier: BSL-1.0
// Tests of the DAG generator and the in-memory reference evaluation of the time-forward
// processing demo (emflow/pipelines/tfp/).

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <emflow/pipelines/tfp/in_memory_evaluation.hpp>
#include <emflow/pipelines/tfp/random_dag.hpp>
#include "test_env.hpp"

namespace tfp = emflow::pipelines::tfp;

namespace {

std::vector<tfp::dag_edge> to_std(const tfp::edge_vector& edges) {
    std::vector<tfp::dag_edge> out;
    for (auto it = edges.cbegin(); it != edges.cend(); ++it) out.push_back(*it);
    return out;
}

//! Checks the invariants every generated DAG has: ids in range, lower to higher, source order.
void check_well_formed(const tfp::edge_vector& edges, std::uint64_t n) {
    std::uint64_t prev = 0;
    for (const tfp::dag_edge& e : to_std(edges)) {
        REQUIRE(e.source < e.target);
        REQUIRE(e.target < n);
        REQUIRE(e.source >= prev);
        prev = e.source;
    }
}

}  // namespace

TEST_CASE("generated DAGs are well formed, deterministic, and of their shape", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    {
        for (tfp::dag_shape shape : {tfp::dag_shape::chain, tfp::dag_shape::wide_layers,
                                     tfp::dag_shape::random_local, tfp::dag_shape::random}) {
            for (std::uint64_t n : {0u, 1u, 2u, 100u, 5000u}) {
                INFO("shape " << int(shape) << " nodes " << n);
                tfp::dag_spec spec;
                spec.shape = shape;
                spec.nodes = n;
                spec.degree = 3;
                spec.span = 50;
                spec.layer_width = 40;
                spec.region = 300;
                tfp::node_vector inputs, inputs2;
                tfp::edge_vector edges, edges2;
                tfp::generate_dag(spec, seed, inputs, edges);
                REQUIRE(inputs.size() == n);
                check_well_formed(edges, n);
                tfp::generate_dag(spec, seed, inputs2, edges2);
                const auto a = to_std(edges), b = to_std(edges2);
                REQUIRE(a.size() == b.size());
                for (std::size_t i = 0; i < a.size(); ++i)
                    REQUIRE((a[i].source == b[i].source && a[i].target == b[i].target &&
                             a[i].weight == b[i].weight));
                for (const tfp::dag_edge& e : a) {
                    if (shape == tfp::dag_shape::chain) REQUIRE(e.target == e.source + 1);
                    if (shape == tfp::dag_shape::wide_layers)
                        REQUIRE(e.target / 40 == e.source / 40 + 1);
                    if (shape == tfp::dag_shape::random_local) REQUIRE(e.target - e.source <= 50);
                }
                if (shape == tfp::dag_shape::chain) REQUIRE(a.size() == (n ? n - 1 : 0));
                if (n == 5000 && shape != tfp::dag_shape::chain) REQUIRE(a.size() > 5000);
            }
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("the reference evaluation computes max-plus longest-path labels", "[tfp]") {
    emflow_test::configure_test_disks();
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    for (std::int64_t x : {5, 1, 2, 10}) inputs.push_back(x);
    // 0 -> 1 (w 3), 0 -> 2 (w 0), 1 -> 3 (w 1), 2 -> 3 (w 7)
    edges.push_back({0, 1, 3});
    edges.push_back({0, 2, 0});
    edges.push_back({1, 3, 1});
    edges.push_back({2, 3, 7});
    const auto v = tfp::in_memory_evaluation(inputs, edges);
    REQUIRE(v.size() == 4);
    CHECK(v[0] == 5);
    CHECK(v[1] == 1 + 5 + 3);
    CHECK(v[2] == 2 + 5 + 0);
    CHECK(v[3] == 10 + std::max(9 + 1, 7 + 7));

    // The busy term adds the same 0 or 1 per node as busy_bit says.
    const auto w = tfp::in_memory_evaluation(inputs, edges, 3);
    CHECK(w[0] == 5 + tfp::busy_bit(5, 3));

    tfp::edge_vector backwards;
    backwards.push_back({2, 1, 0});
    CHECK_THROWS_AS(tfp::in_memory_evaluation(inputs, backwards), std::invalid_argument);
    tfp::edge_vector unsorted;
    unsorted.push_back({2, 3, 0});
    unsorted.push_back({1, 3, 0});
    CHECK_THROWS_AS(tfp::in_memory_evaluation(inputs, unsorted), std::invalid_argument);
}

TEST_CASE("a chain's labels are prefix sums", "[tfp]") {
    emflow_test::configure_test_disks();
    tfp::dag_spec spec;
    spec.shape = tfp::dag_shape::chain;
    spec.nodes = 1000;
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
    const auto v = tfp::in_memory_evaluation(inputs, edges);
    std::int64_t sum = 0;
    auto e = edges.cbegin();
    for (std::uint64_t i = 0; i < spec.nodes; ++i) {
        sum += inputs[i];
        REQUIRE(v[i] == sum);
        if (i + 1 < spec.nodes) sum += (*e++).weight;
    }
}
