// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/pipelines/tfp/dag_evaluation.hpp: time-forward evaluation of DAGs against the
// plain in-memory evaluation, with fixed and adaptive windows, and its error paths.
#include <emflow/pipelines/tfp/dag_evaluation.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <emflow/pipelines/tfp/in_memory_evaluation.hpp>
#include <emflow/pipelines/tfp/random_dag.hpp>
#include "test_env.hpp"
#include "tfp/require_values.hpp"

namespace tfp = emflow::pipelines::tfp;

namespace {

tfp::evaluation_options small_config(unsigned work = 0) {
    tfp::evaluation_options cfg;
    cfg.queue.memory_bytes = 8u << 20;
    cfg.queue.num_threads = 2;
    cfg.work = work;
    cfg.max_window = 1u << 14;
    return cfg;
}

//! Evaluates by time-forward processing and compares with the reference, node by node.
template <typename Window>
emflow::pipelines::tfp::time_forward_stats check_against_reference(
    const tfp::node_vector& inputs, const tfp::edge_vector& edges, Window& window,
    const tfp::evaluation_options& cfg) {
    tfp::value_vector values;
    const auto stats = tfp::evaluate_dag(inputs, edges, values, window, cfg);
    emflow_test::require_values(values, tfp::in_memory_evaluation(inputs, edges, cfg.work));
    return stats;
}

//! A DAG of n nodes: a chain 0 -> 1 -> ... -> n - 1, and an edge from every node to the last.
void chain_and_sink(std::uint64_t n, tfp::node_vector& inputs, tfp::edge_vector& edges) {
    for (std::uint64_t i = 0; i < n; ++i) {
        inputs.push_back(std::int64_t(i % 1000));
        if (i + 1 < n) edges.push_back({i, i + 1, 1});
        if (i + 2 < n) edges.push_back({i, n - 1, std::int64_t(i % 77)});
    }
}

}  // namespace

TEST_CASE("time-forward evaluation equals the in-memory evaluation on every shape", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    {
        for (tfp::dag_shape shape : {tfp::dag_shape::chain, tfp::dag_shape::wide_layers,
                                     tfp::dag_shape::random_local, tfp::dag_shape::random}) {
            for (std::uint64_t n : {0u, 1u, 2u, 3000u}) {
                tfp::dag_spec spec;
                spec.shape = shape;
                spec.nodes = n;
                spec.degree = 3;
                spec.span = 100;
                spec.layer_width = 64;
                spec.region = 500;
                tfp::node_vector inputs;
                tfp::edge_vector edges;
                tfp::generate_dag(spec, seed + n, inputs, edges);
                for (std::uint64_t width : {1u, 5u, 64u, 1000u, 1u << 20}) {
                    INFO("shape " << int(shape) << " nodes " << n << " fixed width " << width);
                    emflow::pipelines::tfp::fixed_window w(width);
                    check_against_reference(inputs, edges, w, small_config(width % 3));
                }
                INFO("shape " << int(shape) << " nodes " << n << " adaptive");
                emflow::pipelines::tfp::adaptive_window a(256);
                check_against_reference(inputs, edges, a, small_config());
                for (std::size_t max_bulk : {2u, 37u}) {  // windows evaluated over several rounds
                    INFO("max_bulk " << max_bulk);
                    emflow::pipelines::tfp::fixed_window w(1000);
                    tfp::evaluation_options cut = small_config();
                    cut.max_bulk = max_bulk;
                    const auto stats = check_against_reference(inputs, edges, w, cut);
                    CHECK(stats.max_bulk <= max_bulk);
                }
            }
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("time-forward evaluation of a graph whose messages spill out of the queue's memory",
          "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        tfp::dag_spec spec;
        spec.shape = tfp::dag_shape::random;  // long edges: messages wait long in the queue
        spec.nodes = 300000;
        spec.degree = 3;
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
        emflow::pipelines::tfp::adaptive_window a(4096);
        const auto stats = check_against_reference(inputs, edges, a, small_config());
        CHECK(stats.items > spec.nodes);  // ~3 messages per node went through the queue
        // Bulks stay near the target on average once adapted.
        CHECK(stats.mean_bulk() > 1024);
        CHECK(stats.mean_bulk() < 4 * 4096);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("the default adaptive target comes from the queue's budget and evaluates correctly",
          "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        const tfp::evaluation_options cfg = small_config();  // windows of at most 2^14 nodes
        const std::size_t target = tfp::default_target_bulk(cfg);
        CHECK(target == cfg.queue.memory_bytes / 4 / sizeof(tfp::message));
        {
            const tfp::message_queue queue(tfp::later_target(), cfg.queue);
            CHECK(emflow::pipelines::tfp::memory_target_bulk(queue) == target);
        }
        tfp::evaluation_options twice = cfg;
        twice.queue.memory_bytes *= 2;
        CHECK(tfp::default_target_bulk(twice) == 2 * target);

        // A graph whose messages (mostly between windows) outnumber the target many times over
        // and spill out of the queue's RAM: the default target evaluates it correctly, in few
        // bulks of many messages each.
        tfp::dag_spec spec;
        spec.shape = tfp::dag_shape::random;
        spec.nodes = 400000;
        spec.degree = 3;
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
        emflow::pipelines::tfp::adaptive_window window(target);
        const auto stats = check_against_reference(inputs, edges, window, cfg);
        INFO("bulks " << stats.bulks << ", messages " << stats.items);
        CHECK(stats.items > 4 * target);
        CHECK(stats.mean_bulk() > target / 8);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a node with more messages than a round may hold is evaluated over several rounds",
          "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        chain_and_sink(20000, inputs, edges);
        SECTION("max_bulk as set") {
            tfp::evaluation_options cfg = small_config();
            cfg.max_bulk = 1000;
            emflow::pipelines::tfp::adaptive_window w(256);
            const auto stats = check_against_reference(inputs, edges, w, cfg);
            CHECK(stats.max_bulk <= 1000);
            CHECK(stats.truncated_bulks >= 19998 / 1000);  // the last node's messages alone
        }
        SECTION("max_bulk from the budget: a third of the queue's, in messages") {
            tfp::evaluation_options cfg;
            cfg.memory_bytes = 40u << 20;
            cfg.queue.num_threads = 2;
            const tfp::evaluation_options resolved = tfp::resolve_budget(cfg);
            CHECK(resolved.max_bulk == resolved.queue.memory_bytes / 3 / sizeof(tfp::message));
            tfp::node_vector wide_inputs;
            tfp::edge_vector wide_edges;
            chain_and_sink(resolved.max_bulk + resolved.max_bulk / 2, wide_inputs, wide_edges);
            emflow::pipelines::tfp::adaptive_window w(tfp::default_target_bulk(cfg));
            const auto stats = check_against_reference(wide_inputs, wide_edges, w, cfg);
            CHECK(stats.max_bulk <= resolved.max_bulk);
            CHECK(stats.truncated_bulks > 0);
        }
        tfp::value_vector values;
        emflow::pipelines::tfp::fixed_window w(64);
        tfp::evaluation_options one = small_config();
        one.max_bulk = 1;  // two messages of a node could never be folded into one
        CHECK_THROWS_AS(tfp::evaluate_dag(inputs, edges, values, w, one), std::invalid_argument);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a malformed DAG is reported, without leaking temp files", "[tfp]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        tfp::node_vector inputs;
        for (int i = 0; i < 10; ++i) inputs.push_back(i);
        tfp::edge_vector backwards;
        backwards.push_back({0, 5, 1});
        backwards.push_back({6, 2, 1});
        emflow::pipelines::tfp::fixed_window w(4);
        tfp::value_vector values;
        CHECK_THROWS_AS(tfp::evaluate_dag(inputs, backwards, values, w, small_config()),
                        std::invalid_argument);
        tfp::evaluation_options bad = small_config();
        bad.max_window = 0;
        CHECK_THROWS_AS(tfp::evaluate_dag(inputs, backwards, values, w, bad),
                        std::invalid_argument);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a disk that fills while the values are written reaches the caller as stxxl::io_error",
          "[tfp][errors]") {
    // Room for the DAG (8 MiB of inputs, 24 MiB of edges) and half of its 8 MiB of values; the
    // messages (span 1024) stay in the queue's RAM, so only the values' writes fail.
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{36 << 20}};
    auto& dir = emflow_test::configure_test_disks(em);
    {
        tfp::dag_spec spec;
        spec.nodes = 1u << 20;
        spec.degree = 1;
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
        emflow::pipelines::tfp::fixed_window w(1u << 12);
        tfp::value_vector values;
        CHECK_THROWS_AS(tfp::evaluate_dag(inputs, edges, values, w, small_config()),
                        stxxl::io_error);
    }
    CHECK(dir.entries() == 0);
}
