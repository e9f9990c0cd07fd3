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
#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <stxxl/sorter>

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
//! By vertex, then distance (STXXL's sorter needs the sentinels).
struct by_candidate {
    //! a before b.
    bool operator()(const candidate& a, const candidate& b) const {
        if (a.vertex != b.vertex) return a.vertex < b.vertex;
        return a.dist < b.dist || (a.dist == b.dist && a.tail < b.tail);
    }
    //! Sentinel before all.
    static candidate min_value() { return {0, 0, 0}; }
    //! Sentinel after all.
    static candidate max_value() { return {UINT64_MAX, UINT64_MAX, UINT64_MAX}; }
};
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
    stxxl::sorter<detail::candidate, detail::by_candidate, 1 << 18> sorter(
        detail::by_candidate{}, std::max<std::uint64_t>(memory_bytes, 8 << 20));
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
    sorter.sort();
    detail::buffered_reader d(df, 0, df.size());
    std::optional<detail::buffered_reader> p;
    if (pf) p.emplace(*pf, 0, pf->size());
    for (std::uint64_t v = 0; v < h.vertices; ++v) {
        std::uint64_t dv, pv = no_parent_u64, best = unreached;
        d.get(dv);
        if (p) p->get(pv);
        bool tight_parent = false;  // a candidate (v, dv, pv)
        if (!sorter.empty() && (*sorter).vertex == v) best = (*sorter).dist;
        for (; !sorter.empty() && (*sorter).vertex == v; ++sorter)
            tight_parent |= (*sorter).dist == dv && (*sorter).tail == pv;
        const std::string at = "vertex " + std::to_string(v) + ": ";
        if (p && (v == source || dv == unreached) && pv != no_parent_u64)
            return {false, at + "parent " + std::to_string(pv) + " given for " +
                               (v == source ? "the source" : "an unreached vertex")};
        if (v == source) {
            if (dv != 0) return {false, at + "the source's distance is " + std::to_string(dv)};
            continue;
        }
        if (dv > best)
            return {false, at + "distance " + (dv == unreached ? "unreached" : std::to_string(dv)) +
                               " exceeds " + std::to_string(best) + " over an in-edge"};
        if (dv != unreached && dv != best)
            return {false, at + "distance " + std::to_string(dv) +
                               " has no tight in-edge from a reached vertex"};
        if (p && dv != unreached && !tight_parent)
            return {false, at + (pv == no_parent_u64 ? std::string("no parent given")
                                                     : "parent " + std::to_string(pv) +
                                                           " is not the tail of a tight in-edge")};
    }
    return {true, ""};
}

}  // namespace emflow::pipelines::graph
