// SPDX-License-Identifier: BSL-1.0
// bench/graph/graph_bench.cpp: one graph file, one source: emflow's SSSP (adaptive Δ and each
// fixed Δ asked for) or BFS, and BGL's Dijkstra or BFS on a CSR graph in RAM, side by side;
// every emflow result is compared with BGL's. The source is the vertex of most out-edges. One CSV
// line per run on stdout. Mode astar: per query s:t, BGL's Dijkstra from s, emflow's SSSP from s,
// emflow's SSSP stopped once t is settled, and A* from s to t (all adaptive), on its own CSV.
#include <emflow/external_memory.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace g = emflow::pipelines::graph;

namespace {

using bgl_graph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, std::uint32_t>>;

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double peak_rss_mib() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

//! The graph file as BGL's CSR graph (the edges are sorted by source already).
bgl_graph load_bgl(const std::string& path, const g::graph_header& h) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint64_t> off(h.vertices + 1);
    in.seekg(std::streamoff(h.offsets_at()));
    in.read(reinterpret_cast<char*>(off.data()), std::streamsize(8 * off.size()));
    std::vector<std::uint32_t> tgt(h.edges), w(h.edges, 1);
    in.read(reinterpret_cast<char*>(tgt.data()), std::streamsize(4 * h.edges));
    if (h.weighted()) in.read(reinterpret_cast<char*>(w.data()), std::streamsize(4 * h.edges));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges(h.edges);
    for (std::uint64_t u = 0; u < h.vertices; ++u)
        for (std::uint64_t k = off[u]; k < off[u + 1]; ++k) edges[k] = {std::uint32_t(u), tgt[k]};
    return bgl_graph(boost::edges_are_sorted, edges.begin(), edges.end(), w.begin(), h.vertices);
}

std::vector<std::uint64_t> bgl_run(const bgl_graph& bg, std::uint32_t s, bool bfs) {
    std::vector<std::uint64_t> d(num_vertices(bg), g::unreached);
    if (bfs) {
        d[s] = 0;
        boost::breadth_first_search(
            bg, s,
            boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                boost::make_iterator_property_map(d.begin(), get(boost::vertex_index, bg)),
                boost::on_tree_edge()))));
        return d;
    }
    boost::dijkstra_shortest_paths_no_color_map(
        bg, s,
        boost::distance_map(
            boost::make_iterator_property_map(d.begin(), get(boost::vertex_index, bg)))
            .distance_inf(g::unreached));
    return d;
}

//! The adaptive thresholds, overridden by GRAPH_BENCH_ADAPTIVE="key=value,..." (for tuning).
g::adaptive_params adaptive_from_env() {
    g::adaptive_params p;
    const char* env = std::getenv("GRAPH_BENCH_ADAPTIVE");
    std::string s = env ? env : "";
    for (std::size_t at = 0; at < s.size();) {
        std::size_t end = s.find(',', at), eq = s.find('=', at);
        if (end == std::string::npos) end = s.size();
        const std::string key = s.substr(at, eq - at), value = s.substr(eq + 1, end - eq - 1);
        if (key == "min_bulk")
            p.min_bulk = std::stoull(value);
        else if (key == "min_density")
            p.min_density = std::stoull(value);
        else if (key == "max_pops")
            p.max_pops = std::stoull(value);
        else if (key == "min_groups")
            p.min_groups = std::stoull(value);
        else if (key == "max_useless")
            p.max_useless = std::stod(value);
        else if (key == "max_useless_astar")
            p.max_useless_astar = std::stod(value);
        else if (key == "min_relaxed")
            p.min_relaxed = std::stoull(value);
        else if (key == "max_merge_step")
            p.max_merge_step = std::stoi(value);
        else if (key == "window_rounds")
            p.window_rounds = std::stoull(value);
        else
            throw std::invalid_argument("GRAPH_BENCH_ADAPTIVE: unknown key " + key);
        at = end + 1;
    }
    return p;
}

//! The vertex of most out-edges in the graph file at path (never isolated, if any has edges).
std::uint32_t max_degree_vertex(const std::string& path, const g::graph_header& h) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint64_t> off(h.vertices + 1);
    in.seekg(std::streamoff(h.offsets_at()));
    in.read(reinterpret_cast<char*>(off.data()), std::streamsize(8 * off.size()));
    std::uint64_t best = 0;
    for (std::uint64_t v = 1; v < h.vertices; ++v)
        if (off[v + 1] - off[v] > off[best + 1] - off[best]) best = v;
    return std::uint32_t(best);
}

//! BFS on the queue's machinery (what bfs() runs where the frontiers do not fit), its CSV line;
//! false if its distances differ from expect.
bool report_queue_bfs(const std::string& path, const std::string& name, const g::graph_header& h,
                      std::uint32_t source, g::search_options o,
                      const std::vector<std::uint64_t>& expect) {
    o.log_delta = 0;
    const double t = now();
    g::detail::search_loop<g::detail::zero_heuristic> loop(path, h, o, {}, true, 0, false);
    const g::search_result r = loop.run(source, std::nullopt);
    const double sec = now() - t;
    if (r.distance != expect) return false;
    std::printf("%s,bfs,emflow_queue,0,%.4f,%.0f,%llu,%.0f,0,0,%.0f,%llu\n", name.c_str(), sec,
                double(h.edges) / sec, (unsigned long long)r.stats.rounds,
                double(r.stats.expanded) / double(std::max<std::uint64_t>(1, r.stats.rounds)),
                peak_rss_mib(), (unsigned long long)(r.stats.queue_bytes_io + r.stats.bytes_read));
    return true;
}

//! Prints one astar-mode CSV line
//! (graph,query,source,target,impl,seconds,expanded,rounds,distance).
void print_query(const std::string& name, int query, std::uint32_t s, std::uint32_t t,
                 const char* impl, double sec, const g::search_stats* st, std::uint64_t d) {
    std::printf("%s,%d,%u,%u,%s,%.4f,%s,%s,%llu\n", name.c_str(), query, s, t, impl, sec,
                st ? std::to_string(st->expanded).c_str() : "",
                st ? std::to_string(st->rounds).c_str() : "", (unsigned long long)d);
    std::fflush(stdout);
}

//! SSSP from s stopped once t is settled (A* with no heuristic: what A*'s heuristic saves).
g::search_result sssp_to(const std::string& path, const g::graph_header& h, std::uint32_t s,
                         std::uint32_t t, const g::search_options& o) {
    g::detail::search_loop<g::detail::zero_heuristic> loop(path, h, o, {}, false,
                                                           g::detail::start_lmf(h), false);
    return loop.run(s, t);
}

//! The queries "s:t" of argv[6..], each run four ways; returns 1 if a distance differs.
int run_queries(const std::string& path, const std::string& name, const g::graph_header& h,
                const bgl_graph& bg, const g::search_options& o, int argc, char** argv) {
    for (int i = 6; i < argc; ++i) {
        const std::string q = argv[i];
        const std::uint64_t s = std::stoull(q.substr(0, q.find(':'))),
                            t = std::stoull(q.substr(q.find(':') + 1));
        if (s >= h.vertices || t >= h.vertices) {
            std::fprintf(stderr, "graph_bench: query %s: a vertex out of range\n", q.c_str());
            return 2;
        }
        double t0 = now();
        const std::vector<std::uint64_t> expect = bgl_run(bg, s, false);
        print_query(name, i - 5, s, t, "bgl_dijkstra", now() - t0, nullptr, expect[t]);
        t0 = now();
        const g::search_result full = g::sssp(path, s, o);
        print_query(name, i - 5, s, t, "sssp", now() - t0, &full.stats, full.distance[t]);
        t0 = now();
        const g::search_result to = sssp_to(path, h, s, t, o);
        print_query(name, i - 5, s, t, "sssp_to_target", now() - t0, &to.stats, to.distance[t]);
        t0 = now();
        const g::search_result a = g::astar(path, s, t, o);
        print_query(name, i - 5, s, t, "astar", now() - t0, &a.stats, a.distance[t]);
        if (full.distance != expect || to.distance[t] != expect[t] || a.distance[t] != expect[t]) {
            std::fprintf(stderr, "graph_bench: %s %s: a distance differs from BGL's\n",
                         name.c_str(), q.c_str());
            return 1;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 3 ? argv[3] : "";
    if (argc < 6 && !(argc == 4 && mode == "source")) {
        std::fprintf(stderr,
                     "usage: graph_bench GRAPH NAME sssp|bfs MEMORY_MIB THREADS [LOG_DELTA...]\n"
                     "       graph_bench GRAPH NAME astar MEMORY_MIB THREADS [S:T...]\n"
                     "       graph_bench GRAPH NAME source   (prints the source of the runs)\n"
                     "(LOG_DELTA -1: adaptive)\n");
        return 2;
    }
    const std::string path = argv[1], name = argv[2];
    g::adaptive_params adaptive;
    try {
        adaptive = adaptive_from_env();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "graph_bench: %s\n", e.what());
        return 2;
    }
    const bool bfs = mode == "bfs";
    emflow::ensure_external_memory();
    const g::graph_header h = g::read_header(path);
    const std::uint32_t source = max_degree_vertex(path, h);
    if (mode == "source") {
        std::printf("%u\n", source);
        return 0;
    }
    double t = now();
    const bgl_graph bg = load_bgl(path, h);
    std::fprintf(stderr, "graph_bench: %s loaded for BGL in %.2f s\n", name.c_str(), now() - t);
    if (mode == "astar") {
        g::search_options o;
        o.memory_bytes = std::uint64_t(std::atoll(argv[4])) << 20;
        o.threads = unsigned(std::atoi(argv[5]));
        o.adaptive = adaptive;
        return run_queries(path, name, h, bg, o, argc, argv);
    }
    t = now();
    const std::vector<std::uint64_t> expect = bgl_run(bg, source, bfs);
    const double bgl_s = now() - t;
    std::printf("%s,%s,bgl,,%.4f,%.0f,,,,,%.0f,\n", name.c_str(), mode.c_str(), bgl_s,
                double(h.edges) / bgl_s, peak_rss_mib());
    const auto options_of = [&](int i) {
        g::search_options o;
        o.memory_bytes = std::uint64_t(std::atoll(argv[4])) << 20;
        o.threads = unsigned(std::atoi(argv[5]));
        o.log_delta = std::atoi(argv[i]);
        o.adaptive = adaptive;
        return o;
    };
    // Untimed: a process's first search pays the thread pools' start and the first touch of its
    // arrays (kron-w64, adaptive: 0.19-0.25 s first, 0.137 s after), which would fall on
    // whichever mode is listed first (run-graph lists the adaptive one first).
    if (argc > 6)
        (void)(bfs ? g::bfs(path, source, options_of(6)) : g::sssp(path, source, options_of(6)));
    for (int i = 6; i < argc; ++i) {
        g::search_options o = options_of(i);
        if (std::getenv("GRAPH_BENCH_TRACE"))  // per round: log2 Δ, bulk, useless so far
            o.on_round = [last = std::uint64_t(0)](const g::search_stats& st) mutable {
                std::fprintf(stderr, "round %llu lmf %d bulk %llu useless %.3f\n",
                             (unsigned long long)st.rounds, st.log_delta,
                             (unsigned long long)(st.expanded - last), st.useless_share());
                last = st.expanded;
            };
        t = now();
        g::search_result r = bfs ? g::bfs(path, source, o) : g::sssp(path, source, o);
        const double sec = now() - t;
        if (r.distance != expect || (bfs && !report_queue_bfs(path, name, h, source, o, expect))) {
            std::fprintf(stderr, "graph_bench: %s: emflow's distances differ from BGL's\n",
                         name.c_str());
            return 1;
        }
        const g::search_stats& s = r.stats;
        std::printf("%s,%s,emflow,%s,%.4f,%.0f,%llu,%.0f,%.4f,%d,%.0f,%llu\n", name.c_str(),
                    mode.c_str(), o.log_delta < 0 ? "adaptive" : argv[i], sec,
                    double(h.edges) / sec, (unsigned long long)s.rounds,
                    s.rounds ? double(s.expanded) / double(s.rounds) : 0.0, s.useless_share(),
                    s.log_delta, peak_rss_mib(),
                    (unsigned long long)(s.queue_bytes_io + s.bytes_read));
        std::fflush(stdout);
    }
}
