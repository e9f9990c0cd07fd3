// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/pipelines/tfp/dag_evaluation.hpp when RAM runs out: a failed allocation
// anywhere in the evaluation (window arrays, the queue's arrays and heaps, its background
// tasks, the parallel evaluation of a level) reaches the caller as std::bad_alloc, leaves no temp
// file, and the next evaluation runs normally. A binary of its own (failing_new.hpp).
#include <emflow/pipelines/tfp/dag_evaluation.hpp>

#include <catch2/catch.hpp>

#include <emflow/pipelines/tfp/in_memory_evaluation.hpp>
#include <emflow/pipelines/tfp/random_dag.hpp>
#include "failing_new.hpp"
#include "test_env.hpp"
#include "tfp/require_values.hpp"

namespace tfp = emflow::pipelines::tfp;

TEST_CASE("a failed allocation during the evaluation reaches the caller as std::bad_alloc",
          "[tfp][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        tfp::dag_spec spec;
        spec.shape = tfp::dag_shape::random;  // long edges: the queue spills to disk
        spec.nodes = 300000;
        spec.degree = 3;
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
        const auto expected = tfp::in_memory_evaluation(inputs, edges);
        for (const bool budget : {false, true}) {
            tfp::evaluation_options cfg;
            cfg.queue.num_threads = 2;
            if (budget) {
                cfg.memory_bytes = 48u << 20;
            } else {
                cfg.queue.memory_bytes = 8u << 20;
                cfg.max_window = 1u << 16;
            }
            INFO("budget " << budget);
            emflow_test::check_failures_reach_the_caller([&] {
                emflow::pipelines::tfp::adaptive_window w(tfp::default_target_bulk(cfg));
                tfp::value_vector values;
                tfp::evaluate_dag(inputs, edges, values, w, cfg);
            });
            emflow::pipelines::tfp::adaptive_window w(tfp::default_target_bulk(cfg));
            tfp::value_vector values;
            tfp::evaluate_dag(inputs, edges, values, w, cfg);
            emflow_test::require_values(values, expected);
        }
    }
    CHECK(dir.entries() == 0);
}
