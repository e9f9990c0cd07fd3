// SPDX-License-Identifier: BSL-1.0
// emflow-graph's commands on the library (emflow/pipelines/graph/graph.hpp): each checks its
// arguments and files, runs, and reports progress and a summary on stderr.
#pragma once

#include "errors.hpp"
#include "options.hpp"

#include <emflow/external_memory.hpp>
#include <emflow/pipelines/graph/graph.hpp>
#include <emflow/process_memory.hpp>
#include <emflow/timing.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace emflow_graph {

namespace graph = emflow::pipelines::graph;

//! Seconds since start, for progress.
class stopwatch {
public:
    //! Seconds since construction.
    double seconds() const { return emflow::seconds_since(start_); }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

//! Peak RSS in MiB.
inline double peak_rss_mib() { return double(emflow::peak_rss_bytes()) / 1048576; }

//! Exit 2 unless the command got exactly n positional arguments (after its kind for
//! generate/import).
inline void expect_inputs(const options& o, std::size_t n, const char* what) {
    if (o.inputs.size() != n) throw usage_error(o.command + " needs " + what);
}

//! Exit 4 unless path is a readable file.
inline void expect_readable(const std::string& path) {
    if (::access(path.c_str(), R_OK) != 0)
        throw tool_error(exit_input, path + ": " + std::strerror(errno));
}

//! Exit 5 if the directory of the output path is not writable.
inline void expect_writable(const std::string& path) {
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (dir.empty()) dir = ".";
    if (::access(dir.c_str(), W_OK) != 0)
        throw tool_error(exit_output, dir.string() + ": not a writable directory");
}

//! Exit 2 without -o; exit 5 if OUT's directory is not writable.
inline void expect_output(const options& o) {
    if (o.output.empty()) throw usage_error(o.command + " needs -o OUT");
    expect_writable(o.output);
}

//! Configures the temporary disk; an unusable directory is an output error.
inline void configure_disks(const options& o) {
    emflow::external_memory_options cfg;
    cfg.tmp_base = o.tmp_dir;
    try {
        emflow::configure_external_memory(cfg);
    } catch (const emflow::config_error& e) {
        throw tool_error(exit_output, e.what());
    }
}

//! Input errors of the library (malformed lines, truncated files) are exit code 4.
template <class F>
auto as_input_error(F f) -> decltype(f()) {
    try {
        return f();
    } catch (const std::system_error&) {
        throw;
    } catch (const std::invalid_argument& e) {
        throw usage_error(e.what());
    } catch (const emflow::config_error&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw tool_error(exit_input, e.what());
    }
}

inline graph::build_options build_opts(const options& o) {
    graph::build_options b;
    b.undirected = o.undirected;
    b.drop_self_loops = o.drop_self_loops;
    b.drop_parallel = o.drop_parallel;
    b.memory_bytes = std::max<std::uint64_t>(o.memory_bytes, 8 << 20);
    return b;
}

inline void summarize_graph(const options& o, const graph::graph_header& h, const stopwatch& w) {
    if (o.quiet) return;
    std::fprintf(stderr,
                 "emflow-graph: %s: %llu vertices, %llu edges in %.2f s, peak RSS %.0f MiB\n",
                 o.output.c_str(), (unsigned long long)h.vertices, (unsigned long long)h.edges,
                 w.seconds(), peak_rss_mib());
}

inline int run_generate(const options& o) {
    expect_inputs(o, 1, "kron, uniform or road");
    expect_output(o);
    graph::generate_options g;
    g.seed = o.seed;
    g.max_weight = std::uint32_t(std::min<std::uint64_t>(o.max_weight, UINT32_MAX));
    g.weight_divisor = std::uint32_t(std::min<std::uint64_t>(o.weight_divisor, UINT32_MAX));
    g.build = build_opts(o);
    stopwatch w;
    const std::string& kind = o.inputs[0];
    graph::graph_header h;
    if (kind == "kron")
        h = as_input_error([&] {
            return graph::generate_kron(o.output, unsigned(o.scale), unsigned(o.edge_factor), g);
        });
    else if (kind == "uniform")
        h = as_input_error(
            [&] { return graph::generate_uniform(o.output, o.vertices, o.edges, g); });
    else if (kind == "road")
        h = as_input_error([&] { return graph::generate_road(o.output, o.vertices, g); });
    else
        throw usage_error("unknown graph kind '" + kind + "' (kron, uniform or road)");
    summarize_graph(o, h, w);
    return exit_ok;
}

inline int run_import(const options& o) {
    expect_inputs(o, 2, "a format (dimacs, snap, binary) and a file");
    const std::string &kind = o.inputs[0], &in = o.inputs[1];
    if (kind != "dimacs" && kind != "snap" && kind != "binary")
        throw usage_error("unknown input format '" + kind + "' (dimacs, snap or binary)");
    expect_readable(in);
    if (!o.coordinates.empty()) expect_readable(o.coordinates);
    expect_output(o);
    stopwatch w;
    graph::graph_header h = as_input_error([&] {
        if (kind == "dimacs")
            return graph::import_dimacs(in, o.coordinates, o.output, build_opts(o));
        if (kind == "snap") return graph::import_snap(in, o.output, build_opts(o));
        return graph::import_binary(in, o.output, {o.id_bytes, o.weights}, build_opts(o));
    });
    summarize_graph(o, h, w);
    return exit_ok;
}

//! Search options with progress on stderr (at most one line a second).
inline graph::search_options search_opts(const options& o, const stopwatch& w) {
    graph::search_options s;
    s.memory_bytes = o.memory_bytes;
    s.threads = o.threads;
    s.log_delta = o.log_delta;
    s.parents = !o.parents.empty();
    if (o.quiet) return s;
    s.on_round = [&w, last = 0.0](const graph::search_stats& st) mutable {
        if (w.seconds() < last + 1) return;
        last = w.seconds();
        std::fprintf(stderr,
                     "emflow-graph: %.0f s: round %llu, delta 2^%d, %llu expanded, queue %llu, "
                     "useless %.1f%%\n",
                     last, (unsigned long long)st.rounds, st.log_delta,
                     (unsigned long long)st.expanded, (unsigned long long)st.queue_size,
                     100 * st.useless_share());
    };
    return s;
}

inline void summarize_search(const options& o, const graph::search_stats& s, const stopwatch& w) {
    if (o.quiet) return;
    std::fprintf(
        stderr,
        "emflow-graph: %s in %.2f s: %llu reached, %llu rounds, mean bulk %.0f, final delta "
        "2^%d, useless %.1f%%, %llu relaxations, graph read %.1f MiB, queue I/O %.1f MiB, "
        "peak RSS %.0f MiB\n",
        o.command.c_str(), w.seconds(), (unsigned long long)s.reached, (unsigned long long)s.rounds,
        s.rounds ? double(s.expanded) / double(s.rounds) : 0.0, s.log_delta,
        100 * s.useless_share(), (unsigned long long)s.relaxations, double(s.bytes_read) / 1048576,
        double(s.queue_bytes_io) / 1048576, peak_rss_mib());
}

//! Exit 2 without --source.
inline void expect_source(const options& o) {
    if (!o.has_source) throw usage_error(o.command + " needs --source S");
}

inline std::uint32_t vertex_arg(std::uint64_t v, const char* what) {
    if (v >= graph::max_vertices) throw usage_error(std::string(what) + " out of range");
    return std::uint32_t(v);
}

inline int run_search(const options& o) {
    expect_inputs(o, 1, "a graph file");
    expect_readable(o.inputs[0]);
    expect_source(o);
    const bool astar = o.command == "astar";
    if (astar && !o.has_target) throw usage_error("astar needs --target T");
    if (!astar) expect_output(o);
    if (!o.parents.empty()) expect_writable(o.parents);
    configure_disks(o);
    stopwatch w;
    graph::search_options s = search_opts(o, w);
    const std::uint32_t src = vertex_arg(o.source, "--source");
    graph::search_result r = as_input_error([&] {
        if (o.command == "sssp") return graph::sssp(o.inputs[0], src, s);
        if (o.command == "bfs") return graph::bfs(o.inputs[0], src, s);
        return graph::astar(o.inputs[0], src, vertex_arg(o.target, "--target"), s);
    });
    if (astar) {
        const std::uint64_t d = r.distance[o.target];
        if (d == graph::unreached)
            std::printf("unreachable\n");
        else
            std::printf("%llu\n", (unsigned long long)d);
    } else {
        graph::write_distances(o.output, r.distance);
    }
    if (!o.parents.empty()) graph::write_parents(o.parents, r.parent);
    summarize_search(o, r.stats, w);
    return exit_ok;
}

inline int run_check(const options& o) {
    expect_inputs(o, 2, "a graph file and a distance file");
    expect_source(o);
    expect_readable(o.inputs[0]);
    expect_readable(o.inputs[1]);
    if (!o.parents.empty()) expect_readable(o.parents);
    configure_disks(o);
    stopwatch w;
    graph::check_result r = as_input_error([&] {
        return graph::check_distances(o.inputs[0], o.inputs[1], o.source, o.unit_weights,
                                      std::max<std::uint64_t>(o.memory_bytes, 8 << 20), o.parents);
    });
    if (!r.ok) throw tool_error(exit_check_failed, "wrong distances: " + r.reason);
    if (!o.quiet)
        std::fprintf(stderr, "emflow-graph: distances%s correct (%.2f s)\n",
                     o.parents.empty() ? "" : " and parents", w.seconds());
    return exit_ok;
}

inline int run_info(const options& o) {
    expect_inputs(o, 1, "a graph file");
    expect_readable(o.inputs[0]);
    graph::graph_header h = as_input_error([&] { return graph::read_header(o.inputs[0]); });
    std::printf(
        "vertices %llu\nedges %llu\nweights %s\ncoordinates %s\nundirected %s\n"
        "min_weight %u\nmax_weight %u\nversion %u\n",
        (unsigned long long)h.vertices, (unsigned long long)h.edges, h.weighted() ? "yes" : "no",
        h.has_coordinates() ? "yes" : "no", h.flags & graph::flag_undirected ? "yes" : "no",
        h.min_weight, h.max_weight, h.version);
    // A*'s scale: the smallest weight / Euclidean length; "none": A* scans the edges for it.
    if (h.has_astar_scale())
        std::printf("astar_scale %.17g\n", h.astar_scale);
    else
        std::printf("astar_scale none\n");
    return exit_ok;
}

//! Runs the command o names.
inline int run(const options& o) {
    if (o.command == "generate") return run_generate(o);
    if (o.command == "import") return run_import(o);
    if (o.command == "sssp" || o.command == "bfs" || o.command == "astar") return run_search(o);
    if (o.command == "check") return run_check(o);
    if (o.command == "info") return run_info(o);
    if (o.command.empty()) throw usage_error("no command");
    throw usage_error("unknown command '" + o.command + "'");
}

}  // namespace emflow_graph
