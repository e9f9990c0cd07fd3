// SPDX-License-Identifier: BSL-1.0
// tfp_dag_limits: the time-forward DAG evaluation (emflow/pipelines/tfp) with the adaptive
// limit window versus fixed windows of many widths (the naive 512 up to the cap), on one graph
// in one run. Prints CSV rows
//   rule,width,seconds,bulks,mean_bulk,max_bulk,pop_seconds,process_seconds,push_end_seconds
// (the fastest of --rounds rounds over all rules; width: the fixed width, or the adaptive
// window's final width; windows are capped at evaluation_options::max_window = 2^18 nodes; the
// last three columns split that run's time into bulk_pop_limit, processing with its bulk pushes,
// and bulk_push_end), checks that every run computed the same values, and writes the ratios of
// the adaptive time to the best and to the naive fixed width to stderr. The adaptive window's
// target bulk is not tuned for the graph: the library default derived from the queue's memory
// budget (emflow::pipelines::tfp::default_target_bulk, emflow/pipelines/tfp/limit_rules.hpp).
//
//   tfp_dag_limits [--nodes N] [--memory-mib M] [--target T] [--widths W1,W2,...] [--rounds R]
#include <emflow/external_memory.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/pipelines/tfp/limit_rules.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <emflow/pipelines/tfp/random_dag.hpp>

namespace tfp = emflow::pipelines::tfp;

namespace {

std::uint64_t checksum(const tfp::value_vector& v) {
    std::uint64_t h = 0;
    for (auto it = v.cbegin(); it != v.cend(); ++it) h = h * 0x100000001B3ull + std::uint64_t(*it);
    return h;
}

}  // namespace

int main(int argc, char** argv) try {
    tfp::dag_spec spec;
    spec.shape = tfp::dag_shape::random;  // long edges: messages pile up in the queue
    spec.nodes = 1 << 22;
    spec.degree = 3;
    spec.region = 1 << 16;  // density varies by region: a fixed width fits some regions only
    std::size_t memory_mib = 32, target = 0;
    int rounds = 3;
    std::vector<std::uint64_t> widths{512, 1024, 2048, 4096, 16384, 65536, 262144};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--nodes")
            spec.nodes = std::stoull(argv[i + 1]);
        else if (a == "--memory-mib")
            memory_mib = std::stoull(argv[i + 1]);
        else if (a == "--target")
            target = std::stoull(argv[i + 1]);
        else if (a == "--rounds")
            rounds = std::max(1, std::stoi(argv[i + 1]));
        else if (a == "--widths") {
            widths.clear();
            std::stringstream ss(argv[i + 1]);
            for (std::string w; std::getline(ss, w, ',');) widths.push_back(std::stoull(w));
        } else
            throw std::invalid_argument("unknown option " + a);
    }
    tfp::evaluation_options cfg;
    cfg.queue.memory_bytes = memory_mib << 20;
    if (target == 0) target = tfp::default_target_bulk(cfg);
    emflow::ensure_external_memory();
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    tfp::generate_dag(spec, 42, inputs, edges);
    std::cerr << "graph: " << spec.nodes << " nodes, " << edges.size() << " edges; target bulk "
              << target << " (queue budget " << memory_mib << " MiB)\n";

    std::cout << "rule,width,seconds,bulks,mean_bulk,max_bulk,pop_seconds,process_seconds,"
                 "push_end_seconds\n";
    std::uint64_t expected = 0;
    //! Seconds of one evaluation; checks the values against the first run's.
    auto time_one = [&](auto& window) {
        tfp::value_vector values;
        const auto t0 = std::chrono::steady_clock::now();
        const auto stats = tfp::evaluate_dag(inputs, edges, values, window, cfg);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::uint64_t sum = checksum(values);
        if (expected == 0) expected = sum;
        if (sum != expected) throw std::runtime_error("runs disagree on the values");
        return std::make_pair(s, stats);
    };
    // Rounds over all rules, interleaved so that a slow phase of the machine (the disk) hits all
    // rules alike; the fastest run of each counts.
    const std::size_t rules = widths.size() + 1;
    std::vector<double> best(rules, 1e300);
    std::vector<emflow::pipelines::tfp::time_forward_stats> best_stats(rules);
    std::vector<std::uint64_t> final_width(rules);
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t r = 0; r < rules; ++r) {
            std::pair<double, emflow::pipelines::tfp::time_forward_stats> res;
            if (r == 0) {
                // Bounded like evaluate_dag's windows (max_window = 2^18).
                emflow::pipelines::tfp::adaptive_window adaptive(target, 0, 0, 18);
                res = time_one(adaptive);
                final_width[r] = adaptive.width();
            } else {
                emflow::pipelines::tfp::fixed_window fixed(widths[r - 1]);
                res = time_one(fixed);
                final_width[r] = fixed.width();
            }
            if (res.first < best[r]) {
                best[r] = res.first;
                best_stats[r] = res.second;
            }
        }
    }
    for (std::size_t r = 0; r < rules; ++r)
        std::cout << (r == 0 ? "adaptive" : "fixed") << "," << final_width[r] << "," << best[r]
                  << "," << best_stats[r].bulks << "," << best_stats[r].mean_bulk() << ","
                  << best_stats[r].max_bulk << "," << best_stats[r].pop_seconds << ","
                  << best_stats[r].process_seconds << "," << best_stats[r].push_end_seconds << "\n";
    std::size_t best_fixed = 1, naive = 1;
    for (std::size_t r = 1; r < rules; ++r) {
        if (best[r] < best[best_fixed]) best_fixed = r;
        if (widths[r - 1] < widths[naive - 1]) naive = r;
    }
    if (rules > 1)
        std::cerr << "adaptive (target " << target << "): " << best[0] / best[best_fixed]
                  << "x the best fixed width (" << widths[best_fixed - 1] << "), "
                  << best[0] / best[naive] << "x the naive fixed width (" << widths[naive - 1]
                  << ")\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "tfp_dag_limits: " << e.what() << "\n";
    return 1;
}
