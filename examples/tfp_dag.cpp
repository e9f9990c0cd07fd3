// SPDX-License-Identifier: BSL-1.0
// tfp_dag: external-memory time-forward processing of a large random DAG on the PPQ.
//
// Generates a DAG into external vectors, evaluates its max-plus longest-path labels by
// time-forward processing (emflow/pipelines/tfp/dag_evaluation.hpp) with a queue whose memory
// budget is far smaller than the messages in flight, and prints throughput and the bulk sizes
// seen. Checks the result against the in-memory evaluation unless --no-verify.
//
//   tfp_dag [--nodes N] [--degree D] [--shape random|random_local|wide_layers|chain]
//           [--span S] [--memory-mib M] [--window adaptive|<width>] [--target T] [--work W]
//           [--quiet]
//
// --memory-mib is the budget of the whole evaluation (queue, window, vector streams); the
// evaluation's progress goes to stderr unless --quiet.
//           [--seed S] [--no-verify]
// The adaptive window's target bulk defaults to the library's, derived from the queue's memory
// budget (emflow::pipelines::tfp::default_target_bulk); --target overrides it.
#include <emflow/external_memory.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/pipelines/tfp/limit_rules.hpp>
#include <emflow/progress.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include <emflow/pipelines/tfp/in_memory_evaluation.hpp>
#include <emflow/pipelines/tfp/random_dag.hpp>
#include <emflow/timing.hpp>

namespace tfp = emflow::pipelines::tfp;

namespace {

struct options {
    tfp::dag_spec spec;
    std::size_t memory_mib = 64;
    std::string window = "adaptive";
    std::size_t target = 0;  // 0: the library's default for the queue's budget
    unsigned work = 0;
    std::uint64_t seed = 1;
    bool verify = true;
    bool quiet = false;
};

tfp::dag_shape parse_shape(const std::string& s) {
    if (s == "random") return tfp::dag_shape::random;
    if (s == "random_local") return tfp::dag_shape::random_local;
    if (s == "wide_layers") return tfp::dag_shape::wide_layers;
    if (s == "chain") return tfp::dag_shape::chain;
    throw std::invalid_argument("unknown shape '" + s + "'");
}

options parse(int argc, char** argv) {
    options o;
    o.spec.shape = tfp::dag_shape::random;
    o.spec.nodes = 1 << 22;
    o.spec.degree = 3;
    o.spec.span = 1 << 16;
    o.spec.region = 1 << 16;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--nodes")
            o.spec.nodes = std::stoull(value());
        else if (a == "--degree")
            o.spec.degree = unsigned(std::stoul(value()));
        else if (a == "--shape")
            o.spec.shape = parse_shape(value());
        else if (a == "--span")
            o.spec.span = std::stoull(value());
        else if (a == "--memory-mib")
            o.memory_mib = std::stoull(value());
        else if (a == "--window")
            o.window = value();
        else if (a == "--target")
            o.target = std::stoull(value());
        else if (a == "--work")
            o.work = unsigned(std::stoul(value()));
        else if (a == "--seed")
            o.seed = std::stoull(value());
        else if (a == "--no-verify")
            o.verify = false;
        else if (a == "--quiet")
            o.quiet = true;
        else
            throw std::invalid_argument("unknown option " + a);
    }
    return o;
}

using emflow::seconds_since;

tfp::evaluation_options evaluation_options(const options& o) {
    tfp::evaluation_options cfg;
    cfg.memory_bytes = o.memory_mib << 20;
    cfg.work = o.work;
    return cfg;
}

}  // namespace

int main(int argc, char** argv) try {
    const options o = parse(argc, argv);
    emflow::ensure_external_memory();

    auto t0 = std::chrono::steady_clock::now();
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    tfp::generate_dag(o.spec, o.seed, inputs, edges);
    const double gen_s = seconds_since(t0);
    std::cout << "graph: " << o.spec.nodes << " nodes, " << edges.size() << " edges ("
              << (inputs.size() * sizeof(std::int64_t) + edges.size() * sizeof(tfp::dag_edge)) / 1e6
              << " MB) generated in " << gen_s << " s; budget " << o.memory_mib << " MiB\n";

    tfp::value_vector values;
    const auto io0 = emflow::current_io_volume();
    t0 = std::chrono::steady_clock::now();
    emflow::pipelines::tfp::time_forward_stats stats;
    std::optional<emflow::progress> report;
    if (!o.quiet) report.emplace(emflow::stderr_renderer());
    tfp::evaluation_options cfg = evaluation_options(o);
    cfg.report = report ? &*report : nullptr;
    if (o.window == "adaptive") {
        const std::size_t target = o.target ? o.target : tfp::default_target_bulk(cfg);
        emflow::pipelines::tfp::adaptive_window window(target, 0, 0,
                                                       18);  // windows are capped at 2^18
        stats = tfp::evaluate_dag(inputs, edges, values, window, cfg);
        std::cout << "adaptive window: target bulk " << target
                  << (o.target ? "" : " (derived from the queue's budget)") << ", final width "
                  << window.width() << "\n";
    } else {
        emflow::pipelines::tfp::fixed_window window(std::stoull(o.window));
        stats = tfp::evaluate_dag(inputs, edges, values, window, cfg);
        std::cout << "fixed window of " << window.width() << " ids\n";
    }
    const double eval_s = seconds_since(t0);
    const auto io1 = emflow::current_io_volume();

    std::cout << "evaluated in " << eval_s << " s: " << o.spec.nodes / eval_s / 1e6
              << " M nodes/s, " << stats.items / eval_s / 1e6 << " M messages/s\n"
              << "  bulks " << stats.bulks << ", mean " << stats.mean_bulk() << ", min "
              << stats.min_bulk << ", max " << stats.max_bulk << " messages\n"
              << "  time in pops " << stats.pop_seconds << " s, processing "
              << stats.process_seconds << " s, push ends " << stats.push_end_seconds << " s\n"
              << "  I/O: " << (io1.bytes_read - io0.bytes_read) / 1e6 << " MB read, "
              << (io1.bytes_written - io0.bytes_written) / 1e6 << " MB written\n"
              << "  bulk sizes (messages): ";
    for (unsigned i = 0; i < 65; ++i)
        if (stats.bulk_log2_histogram[i])
            std::cout << "[" << (std::uint64_t(1) << i) << ",) " << stats.bulk_log2_histogram[i]
                      << "  ";
    std::cout << "\n";

    if (o.verify) {
        const auto expected = tfp::in_memory_evaluation(inputs, edges, o.work);
        std::uint64_t i = 0, wrong = 0;
        for (auto it = values.cbegin(); it != values.cend(); ++it, ++i) wrong += *it != expected[i];
        std::cout << "verified against the in-memory evaluation: "
                  << (wrong ? std::to_string(wrong) + " WRONG values" : std::string("all equal"))
                  << "\n";
        if (wrong) return 1;
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "tfp_dag: " << e.what() << "\n";
    return 2;
}
