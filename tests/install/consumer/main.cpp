// SPDX-License-Identifier: BSL-1.0
// A program outside the emflow tree, built against an installed emflow: the umbrella header
// (a flow graph with a sort), the PPQ and a pipeline (the time-forward evaluation of a chain).
#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/ppq.hpp>

#include <cstdint>
#include <functional>
#include <iostream>
#include <iterator>
#include <vector>

namespace {

struct ascending {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

bool flow_graph_ok() {
    std::vector<std::uint64_t> out;
    emflow::materialize(
        emflow::generate(100000, [i = std::uint64_t(0)]() mutable { return 99999 - i++; }) |
            emflow::filter([](std::uint64_t x) { return x % 2 == 0; }) |
            emflow::sort(ascending{}, 16 << 20),
        std::back_inserter(out));
    return out.size() == 50000 && out.front() == 0 && out.back() == 99998;
}

bool ppq_ok() {
    emflow::ppq_options cfg;
    cfg.memory_bytes = 16 << 20;
    emflow::parallel_priority_queue<std::uint64_t, std::greater<>> pq(std::greater<>(), cfg);
    for (std::uint64_t i = 0; i < 1000; ++i) pq.push((i * 7919) % 1000);
    std::vector<std::uint64_t> out;
    pq.bulk_pop(out, 1000);
    return out.size() == 1000 && out.front() == 0 && out.back() == 999;
}

bool pipeline_ok() {
    namespace tfp = emflow::pipelines::tfp;
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    for (std::int64_t v = 0; v < 100; ++v) inputs.push_back(1);
    for (std::uint64_t v = 0; v + 1 < 100; ++v) edges.push_back({v, v + 1, 0});
    tfp::evaluation_options cfg;
    cfg.memory_bytes = 64 << 20;
    emflow::pipelines::tfp::adaptive_window window(tfp::default_target_bulk(cfg));
    tfp::value_vector values;
    tfp::evaluate_dag(inputs, edges, values, window, cfg);
    return values.size() == 100 && values[99] == 100;  // a chain of inputs 1
}

}  // namespace

int main() {
    emflow::configure_external_memory();
    const bool flow = flow_graph_ok(), pq = ppq_ok(), pipeline = pipeline_ok();
    std::cout << "consumer: flow graph " << (flow ? "ok" : "WRONG") << ", ppq "
              << (pq ? "ok" : "WRONG") << ", pipeline " << (pipeline ? "ok" : "WRONG") << "\n";
    return flow && pq && pipeline ? 0 : 1;
}
