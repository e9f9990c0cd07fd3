// SPDX-License-Identifier: BSL-1.0
// memory_bench: one run of a graph under one memory budget, as a CSV line: wall time, the
// process's peak RSS during the run (VmHWM, reset after the input was generated), the most bytes
// the nodes held at once, and STXXL's I/O volume. The same budget split by hand (each sorter,
// or the queue, given its own size; no graph budget) is the comparison.
//
//   memory_bench <diamond|sort|tfp> <budget MiB> <input MiB> <auto|hand> [hand MiB] [--progress]
//
// hand MiB: each sorter's memory (diamond, sort), or the queue's (tfp; its window gets what the
// budget leaves). --progress: per-phase progress to stderr (for its overhead).
#include <emflow/flow.hpp>
#include <emflow/pipelines/diamond/diamond.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/process_memory.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include <emflow/pipelines/tfp/random_dag.hpp>

using namespace emflow;
namespace tfp = emflow::pipelines::tfp;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

using u64_vector = stxxl::VECTOR_GENERATOR<u64>::result;

struct setup {
    std::string graph;
    std::size_t budget = 0, input = 0, hand = 0;
    bool automatic = true;
    progress* report = nullptr;
};

//! Runs the graph; returns what the nodes held at most (0 where not tracked).
template <class Timed>
std::size_t run(const setup& s, Timed&& timed) {
    if (s.graph == "diamond") {
        using namespace emflow::pipelines::diamond;
        const u64 n = s.input / sizeof(diamond_pair);
        diamond_input in;
        std::mt19937_64 rng(1);
        materialize(generate(n, [&] { return diamond_pair{1 + (rng() >> 2), rng() >> 2}; }), in);
        diamond_output out;
        memory_report mem;
        diamond_options cfg;
        cfg.memory_bytes = s.budget;
        cfg.sorter_bytes = s.automatic ? 0 : s.hand;
        cfg.report = s.report;
        cfg.memory = &mem;
        timed([&] { run_diamond(in, out, diamond_variant::parallel, cfg); });
        if (out.size() != n) throw std::runtime_error("diamond: wrong output size");
        return mem.peak_held;
    }
    if (s.graph == "sort") {
        const u64 n = s.input / sizeof(u64);
        u64_vector in, out;
        std::mt19937_64 rng(1);
        materialize(generate(n, [&] { return u64(rng()); }), in);
        memory_report mem;
        run_options opt;
        opt.memory_bytes = s.automatic ? s.budget : 0;
        opt.report = s.report;
        opt.memory = &mem;
        const std::size_t m = s.automatic ? 0 : s.hand;
        timed([&] {
            materialize(streamify(in) | sort(std::less<>(), m) |
                            transform([](u64 x) { return x ^ 0xFF; }) | sort(std::greater<>(), m) |
                            transform([](u64 x) { return x ^ 0xFF; }) | sort(std::less<>(), m),
                        out, opt);
        });
        if (out.size() != n) throw std::runtime_error("sort: wrong output size");
        return mem.peak_held;
    }
    if (s.graph == "tfp") {
        tfp::dag_spec spec;
        spec.degree = 2;
        spec.nodes = s.input / (2 * sizeof(std::int64_t) + spec.degree * sizeof(tfp::dag_edge));
        spec.span = std::max<u64>(1024, 4 * s.budget / (spec.degree * 16));  // messages >> budget
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, 1, inputs, edges);
        tfp::evaluation_options cfg;
        if (s.automatic) {
            cfg.memory_bytes = s.budget;
        } else {
            // A split of the same budget: the queue gets hand bytes and the window what the
            // budget leaves after the streams, the queue and the third of it that the pipeline
            // counts for the bulk (resolve_budget), which bounds the bulk as with a budget.
            const std::size_t fixed =
                tfp::evaluation_stream_bytes() + tfp::queue_and_bulk_bytes(s.hand);
            if (fixed + 1024 * tfp::window_bytes_per_node > s.budget)
                throw std::invalid_argument("tfp: a queue of " + std::to_string(s.hand >> 20) +
                                            " MiB leaves no window in the budget");
            cfg.queue.memory_bytes = s.hand;
            cfg.max_bulk = tfp::bulk_messages(s.hand);
            cfg.max_window =
                std::min<u64>((s.budget - fixed) / tfp::window_bytes_per_node, cfg.max_window);
        }
        cfg.report = s.report;
        tfp::adaptive_window window(tfp::default_target_bulk(cfg));
        tfp::value_vector values;
        timed([&] { tfp::evaluate_dag(inputs, edges, values, window, cfg); });
        if (values.size() != spec.nodes) throw std::runtime_error("tfp: wrong output size");
        return 0;
    }
    throw std::invalid_argument("unknown graph " + s.graph);
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 5) {
        std::fprintf(stderr,
                     "usage: memory_bench <diamond|sort|tfp> <budget MiB> <input MiB> "
                     "<auto|hand> [hand MiB] [--progress]\n");
        return 2;
    }
    setup s;
    s.graph = argv[1];
    s.budget = std::stoull(argv[2]) * MiB;
    s.input = std::stoull(argv[3]) * MiB;
    s.automatic = std::string(argv[4]) == "auto";
    bool with_progress = false;
    for (int i = 5; i < argc; ++i) {
        if (std::string(argv[i]) == "--progress")
            with_progress = true;
        else
            s.hand = std::stoull(argv[i]) * MiB;
    }
    ensure_external_memory();
    std::optional<progress> report;
    if (with_progress) report.emplace(stderr_renderer());
    s.report = report ? &*report : nullptr;
    double seconds = 0;
    std::size_t rss = 0;
    io_volume io0, io1;
    const std::size_t held = run(s, [&](auto&& body) {
        reset_peak_rss();
        io0 = current_io_volume();
        const auto t0 = std::chrono::steady_clock::now();
        body();
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rss = peak_rss_bytes();
        io1 = current_io_volume();
    });
    std::printf("%s,%zu,%zu,%s,%zu,%d,%.3f,%.1f,%.1f,%.1f,%.1f\n", s.graph.c_str(), s.budget / MiB,
                s.input / MiB, s.automatic ? "auto" : "hand", s.hand / MiB, int(with_progress),
                seconds, double(rss) / MiB, double(held) / MiB,
                double(io1.bytes_read - io0.bytes_read) / MiB,
                double(io1.bytes_written - io0.bytes_written) / MiB);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "memory_bench: %s\n", e.what());
    return 1;
}
