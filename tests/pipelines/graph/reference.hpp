// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/reference.hpp: a graph file read into RAM, and Dijkstra / BFS on it
// with std::priority_queue / std::queue, as the searches' reference.
#pragma once

#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <cstdint>
#include <fstream>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace graph_test {

//! A graph file's sections in RAM.
struct ram_graph {
    emflow::pipelines::graph::graph_header h;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> targets, weights;
};

inline ram_graph load(const std::string& path) {
    ram_graph g;
    g.h = emflow::pipelines::graph::read_header(path);
    std::ifstream in(path, std::ios::binary);
    in.seekg(128);
    g.offsets.resize(g.h.vertices + 1);
    in.read(reinterpret_cast<char*>(g.offsets.data()), std::streamsize(8 * g.offsets.size()));
    g.targets.resize(g.h.edges);
    in.read(reinterpret_cast<char*>(g.targets.data()), std::streamsize(4 * g.h.edges));
    g.weights.assign(g.h.edges, 1);
    if (g.h.weighted())
        in.read(reinterpret_cast<char*>(g.weights.data()), std::streamsize(4 * g.h.edges));
    return g;
}

//! The vertex with the most out-edges: a source that reaches most of a random graph.
inline std::uint32_t widest_vertex(const ram_graph& g) {
    std::uint32_t best = 0;
    for (std::uint32_t v = 1; v < g.h.vertices; ++v)
        if (g.offsets[v + 1] - g.offsets[v] > g.offsets[best + 1] - g.offsets[best]) best = v;
    return best;
}

//! Whether u -> v is an edge with d(v) = d(u) + w.
inline bool tight_edge(const ram_graph& g, const std::vector<std::uint64_t>& d, std::uint32_t u,
                       std::uint32_t v) {
    for (std::uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        if (g.targets[k] == v && d[u] != emflow::pipelines::graph::unreached &&
            d[u] + g.weights[k] == d[v])
            return true;
    return false;
}

//! Dijkstra from s; unit: every weight 1.
inline std::vector<std::uint64_t> dijkstra(const ram_graph& g, std::uint32_t s, bool unit = false) {
    using entry = std::pair<std::uint64_t, std::uint32_t>;
    std::vector<std::uint64_t> d(g.h.vertices, emflow::pipelines::graph::unreached);
    std::priority_queue<entry, std::vector<entry>, std::greater<>> pq;
    d[s] = 0;
    pq.push({0, s});
    while (!pq.empty()) {
        auto [du, u] = pq.top();
        pq.pop();
        if (du != d[u]) continue;
        for (std::uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
            std::uint64_t nd = du + (unit ? 1 : g.weights[k]);
            if (nd < d[g.targets[k]]) d[g.targets[k]] = nd, pq.push({nd, g.targets[k]});
        }
    }
    return d;
}

}  // namespace graph_test
