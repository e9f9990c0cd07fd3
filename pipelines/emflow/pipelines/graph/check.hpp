// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/check.hpp: proves a distance file right for a graph file without
// holding either in RAM: d(s) = 0, d(v) <= d(u) + w on every edge, and every reached v != s has
// a tight in-edge from a reached u. One scan of the edges with the distances of their sources
// makes the candidates (v, d(u) + w, u), one external sort brings them to their vertex, one scan
// joins them with d(v): d(v) must be the smallest candidate (or s's 0). Given a parent file, the
// same scan checks that every reached v != s names a parent p with a candidate (v, d(v), p), an
// edge (p, v) with d(v) = d(p) + w, and that the source and unreached vertices name none. (It
// does not prove the parents acyclic, which only zero-weight cycles could break; emflow's
// searches give a tree by construction.)
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/nodes/sorted_runs.hpp>
#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace emflow::pipelines::graph {

//! The verdict of check_distances.
struct check_result {
    bool ok = false;     //!< the distances are the shortest-path distances from the source
    std::string reason;  //!< why not (empty if ok)
};

namespace detail {
//! A candidate distance of a vertex: d(u) + w over an edge (u, vertex).
struct candidate {
    std::uint64_t vertex;  //!< the edge's head
    std::uint64_t dist;    //!< d(tail) + weight, saturated at unreached
    std::uint64_t tail;    //!< the edge's tail
};
//! By vertex, then distance, then tail.
struct by_candidate {
    //! a before b.
    bool operator()(const candidate& a, const candidate& b) const {
        if (a.vertex != b.vertex) return a.vertex < b.vertex;
        return a.dist < b.dist || (a.dist == b.dist && a.tail < b.tail);
    }
};

//! One vertex of the join: its distance and parent as given, its smallest candidate and whether
//! a candidate makes the given parent tight.
struct joined_vertex {
    std::uint64_t v = 0, dv = 0, pv = 0, best = 0;
    bool tight_parent = false;
};

//! The verdict on one vertex, or nothing if it is right.
inline std::optional<check_result> check_vertex(const joined_vertex& j, std::uint64_t source,
                                                bool with_parents) {
    const std::string at = "vertex " + std::to_string(j.v) + ": ";
    if (with_parents && (j.v == source || j.dv == unreached) && j.pv != no_parent_u64)
        return check_result{false, at + "parent " + std::to_string(j.pv) + " given for " +
                                       (j.v == source ? "the source" : "an unreached vertex")};
    if (j.v == source) {
        if (j.dv != 0)
            return check_result{false, at + "the source's distance is " + std::to_string(j.dv)};
        return std::nullopt;
    }
    if (j.dv > j.best)
        return check_result{false, at + "distance " +
                                       (j.dv == unreached ? "unreached" : std::to_string(j.dv)) +
                                       " exceeds " + std::to_string(j.best) + " over an in-edge"};
    if (j.dv != unreached && j.dv != j.best)
        return check_result{false, at + "distance " + std::to_string(j.dv) +
                                       " has no tight in-edge from a reached vertex"};
    if (with_parents && j.dv != unreached && !j.tight_parent)
        return check_result{
            false, at + (j.pv == no_parent_u64 ? std::string("no parent given")
                                               : "parent " + std::to_string(j.pv) +
                                                     " is not the tail of a tight in-edge")};
    return std::nullopt;
}
}  // namespace detail

//! Checks the distance file dist (one u64 per vertex) of the graph file graph from source;
//! unit_weights: as hop counts (BFS). memory_bytes: the sort's RAM (at least 8 MiB). parents:
//! a parent file (u64 per vertex, no_parent_u64 for none) to check too, or empty.
inline check_result check_distances(const std::string& graph, const std::string& dist,
                                    std::uint64_t source, bool unit_weights = false,
                                    std::uint64_t memory_bytes = std::uint64_t(64) << 20,
                                    const std::string& parents = {}) {
    const graph_header h = read_header(graph);
    detail::posix_file gf(graph, detail::posix_file::read_only);
    detail::posix_file df(dist, detail::posix_file::read_only);
    if (df.size() != 8 * h.vertices)
        return {false, dist + " holds " + std::to_string(df.size()) + " bytes, expected " +
                           std::to_string(8 * h.vertices) + " (8 per vertex)"};
    if (source >= h.vertices) return {false, "source out of range"};
    std::optional<detail::posix_file> pf;
    if (!parents.empty()) {
        pf.emplace(parents, detail::posix_file::read_only);
        if (pf->size() != 8 * h.vertices)
            return {false, parents + " holds " + std::to_string(pf->size()) + " bytes, expected " +
                               std::to_string(8 * h.vertices) + " (8 per vertex)"};
    }
    ensure_external_memory();
    const std::uint64_t ram = std::max<std::uint64_t>(memory_bytes, 8 << 20);
    sorted_runs<detail::candidate, detail::by_candidate> sorter(ram / 2 /
                                                                sizeof(detail::candidate));
    {
        detail::csr_reader edges(gf, h, std::size_t(1) << 20);
        detail::buffered_reader d(df, 0, df.size());
        for (std::uint64_t u = 0; u < h.vertices; ++u) {
            std::uint64_t du;
            d.get(du);
            detail::adjacency a = edges.edges(std::uint32_t(u));
            if (du == unreached) continue;
            for (std::size_t k = 0; k < a.size; ++k) {
                std::uint64_t w = a.weights && !unit_weights ? a.weights[k] : 1;
                sorter.push({a.targets[k], du > unreached - 1 - w ? unreached : du + w, u});
            }
        }
    }
    detail::buffered_reader d(df, 0, df.size());
    std::optional<detail::buffered_reader> p;
    if (pf) p.emplace(*pf, 0, pf->size());
    detail::joined_vertex j;
    std::optional<check_result> failure;
    const auto load = [&] {  // the given distance and parent of vertex j.v
        d.get(j.dv);
        j.pv = no_parent_u64;
        if (p) p->get(j.pv);
        j.best = unreached;
        j.tight_parent = false;
    };
    const auto finish_up_to = [&](std::uint64_t end) {  // judges the vertices before end
        for (; !failure && j.v < end; ++j.v) {
            failure = detail::check_vertex(j, source, p.has_value());
            if (j.v + 1 < h.vertices) load();
        }
    };
    if (h.vertices > 0) load();
    sorter.each(std::size_t(ram), [&](const detail::candidate& c) {
        finish_up_to(c.vertex);
        if (failure) return;
        j.best = std::min(j.best, c.dist);
        j.tight_parent |= c.dist == j.dv && c.tail == j.pv;
    });
    finish_up_to(h.vertices);
    if (failure) return *failure;
    return {true, ""};
}

}  // namespace emflow::pipelines::graph
