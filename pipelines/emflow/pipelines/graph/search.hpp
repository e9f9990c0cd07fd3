// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/search.hpp: single-source shortest paths (delta-stepping with PMOD's
// adaptive Δ), BFS and A* on a graph file, with the queue in external memory.
//
//   search_options o;  o.memory_bytes = 1 << 30;
//   search_result r = sssp("road.emg", 0, o);   // r.distance[v], unreached if none
//
// BFS is level-synchronous. Where the budget holds two frontier arrays (4 bytes per vertex each)
// it runs without the queue (detail/bfs_levels.hpp: on road-like graphs the queue's pushes, pops
// and per-round sort were most of the time; bench/graph/README.md has the figures); else it is
// the queue's machinery with every weight 1 and Δ = 1 fixed: each round's bulk is then exactly
// one BFS level, every vertex is reached first at its final distance so no relaxation is ever
// overwritten, and a larger Δ could only add such useless work.
#pragma once

#include <emflow/pipelines/graph/detail/astar_scale.hpp>
#include <emflow/pipelines/graph/detail/bfs_levels.hpp>
#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/detail/search_loop.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow::pipelines::graph {

namespace detail {
//! No heuristic: plain SSSP.
struct zero_heuristic {
    //! 0.
    std::uint64_t operator()(std::uint32_t) const { return 0; }
};

//! The start of the adaptive Δ: the mean weight over the mean out-degree, as a power of two
//! (delta-stepping's Θ(1/d) takes the largest weight: on road-like graphs, whose longest edges
//! are rare highways, that starts far above the best Δ, and the rule merges up from a low start
//! faster than it unmerges from a high one).
inline int start_lmf(const graph_header& h) {
    if (h.edges == 0 || h.vertices == 0) return 0;
    const double mean = double(h.weight_sum) / double(h.edges);
    const double d = mean * double(h.vertices) / double(h.edges);
    return d <= 1 ? 0 : int(std::log2(d));
}

inline void check_vertex(const graph_header& h, std::uint64_t v, const char* what) {
    if (v >= h.vertices)
        throw std::invalid_argument(std::string(what) + " vertex " + std::to_string(v) +
                                    " out of range (the graph has " + std::to_string(h.vertices) +
                                    " vertices)");
}

//! The A* heuristic: floor(scale * Euclidean distance to the target), scale the smallest
//! weight / length over all edges of nonzero length (stored in the header by the builder, else
//! found by a scan of the edges: detail/astar_scale.hpp), shrunk by 1e-9 against rounding.
//! It is tabled once per query, 4 bytes per vertex (clamped to 2^32 - 1, which keeps it a lower
//! bound): a search evaluates it for every item it pops and every distance it lowers, and a
//! table load instead of a root of 16 bytes of coordinates made A* on road 2^20 9-35% faster
//! (bench/graph/README.md).
class euclidean_heuristic {
public:
    //! Tables the heuristic: the coordinates are streamed in windows when the header has the
    //! scale, else read whole for the scan that finds it (16 more bytes per vertex meanwhile).
    euclidean_heuristic(const std::string& path, const graph_header& h, std::uint32_t target)
        : table_(h.vertices) {
        if (!h.has_coordinates())
            throw std::invalid_argument(path + ": A* needs coordinates (import a .co file)");
        posix_file f(path, posix_file::read_only);
        double target_xy[2];
        f.read_at(h.coordinates_at() + 16 * std::uint64_t(target), target_xy, sizeof target_xy);
        if (h.has_astar_scale()) {
            scale_ = h.astar_scale * (1 - 1e-9);
            std::vector<double> window(2 * std::min<std::uint64_t>(h.vertices, window_vertices));
            for (std::uint64_t b = 0; b < h.vertices; b += window_vertices) {
                const std::uint64_t n = std::min<std::uint64_t>(window_vertices, h.vertices - b);
                f.read_at(h.coordinates_at() + 16 * b, window.data(), 16 * n);
                fill(window.data(), b, n, target_xy);
            }
        } else {
            std::vector<double> xy(2 * h.vertices);
            f.read_at(h.coordinates_at(), xy.data(), xy.size() * sizeof(double));
            scale_ = scan_astar_scale(f, h, xy) * (1 - 1e-9);
            fill(xy.data(), 0, h.vertices, target_xy);
        }
    }
    //! A lower bound of the distance from v to the target.
    std::uint64_t operator()(std::uint32_t v) const { return table_[v]; }
    //! The scale used (the one found, shrunk by 1e-9).
    double scale() const { return scale_; }

private:
    static constexpr std::uint64_t window_vertices = 1 << 16;

    //! Tables vertices [first, first + n), whose coordinates are xy (t: the target's).
    void fill(const double* xy, std::uint64_t first, std::uint64_t n, const double* t) {
        const double most = double(std::numeric_limits<std::uint32_t>::max());
#pragma omp parallel for schedule(static) if (n >= window_vertices)
        for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
            const double dx = xy[2 * i] - t[0], dy = xy[2 * i + 1] - t[1];
            table_[first + std::uint64_t(i)] =
                std::uint32_t(std::min(most, scale_ * std::sqrt(dx * dx + dy * dy)));
        }
    }

    std::vector<std::uint32_t> table_;
    double scale_ = 0;
};
}  // namespace detail

//! Shortest-path distances from source in the graph file at path (delta-stepping; Δ as
//! opt.log_delta says). Throws emflow::config_error if the vertex arrays do not fit the budget.
inline search_result sssp(const std::string& path, std::uint32_t source,
                          const search_options& opt = {}) {
    const graph_header h = read_header(path);
    detail::check_vertex(h, source, "source");
    detail::search_loop<detail::zero_heuristic> loop(path, h, opt, {}, false, detail::start_lmf(h),
                                                     false);
    return loop.run(source, std::nullopt);
}

//! Hop distances from source (weights ignored; level-synchronous, see the file comment).
inline search_result bfs(const std::string& path, std::uint32_t source,
                         const search_options& opt = {}) {
    const graph_header h = read_header(path);
    detail::check_vertex(h, source, "source");
    const unsigned threads =
        opt.threads ? opt.threads : unsigned(std::max(1, omp_get_max_threads()));
    if (detail::bfs_levels::fits(h, opt, threads))
        return detail::bfs_levels(path, h, opt, threads).run(source);
    search_options o = opt;
    o.log_delta = 0;
    detail::search_loop<detail::zero_heuristic> loop(path, h, o, {}, true, 0, false);
    return loop.run(source, std::nullopt);
}

//! The distance from source to target by A* with the scaled Euclidean heuristic (the graph
//! needs coordinates); result.distance[target] is exact, it stops once target is settled. Its
//! adaptive Δ tolerates opt.adaptive.max_useless_astar of waste (not max_useless).
inline search_result astar(const std::string& path, std::uint32_t source, std::uint32_t target,
                           const search_options& opt = {}) {
    const graph_header h = read_header(path);
    detail::check_vertex(h, source, "source");
    detail::check_vertex(h, target, "target");
    const std::uint64_t need =
        search_memory_needed(h, true, opt.threads ? opt.threads : 1, opt.parents);
    if (opt.memory_bytes < need)  // before the coordinates are read
        throw config_error("a graph of " + std::to_string(h.vertices) +
                           " vertices needs a memory budget of at least " +
                           std::to_string((need + (1 << 20) - 1) >> 20) + " MiB");
    detail::euclidean_heuristic heuristic(path, h, target);
    search_options o = opt;
    o.adaptive.max_useless = opt.adaptive.max_useless_astar;
    detail::search_loop<detail::euclidean_heuristic> loop(path, h, o, std::move(heuristic), false,
                                                          detail::start_lmf(h), true);
    return loop.run(source, target);
}

}  // namespace emflow::pipelines::graph
