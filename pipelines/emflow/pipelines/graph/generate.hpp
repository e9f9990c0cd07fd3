// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/generate.hpp: seeded graph generators: R-MAT / Kronecker with the
// Graph500 parameters, uniform random, and a road-like grid with Euclidean weights.
#pragma once

#include <emflow/pipelines/graph/builder.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

namespace emflow::pipelines::graph {

//! What every generator takes.
struct generate_options {
    std::uint64_t seed = 1;            //!< the random seed: equal seeds, equal graphs
    std::uint32_t max_weight = 255;    //!< kron/uniform: weights uniform in [1, max_weight]
    std::uint32_t weight_divisor = 1;  //!< every weight divided by this (rounded down)
    build_options build;               //!< how the edges become the graph
};

namespace detail {
//! A weight in [1, max] divided by the divisor.
inline std::uint32_t random_weight(std::mt19937_64& rng, const generate_options& o) {
    std::uint32_t w = std::uint32_t(1 + rng() % std::max<std::uint32_t>(o.max_weight, 1));
    return w / std::max<std::uint32_t>(o.weight_divisor, 1);
}
}  // namespace detail

//! An R-MAT graph of 2^scale vertices and edge_factor * 2^scale edges with Graph500's
//! probabilities (a, b, c) = (0.57, 0.19, 0.19), vertex ids scrambled by a bijection.
inline graph_header generate_kron(const std::string& out, unsigned scale, unsigned edge_factor,
                                  const generate_options& o = {}) {
    if (scale < 1 || scale > 31) throw std::invalid_argument("kron: scale must be 1..31");
    graph_builder b(o.build);
    const std::uint64_t n = std::uint64_t(1) << scale, m = std::uint64_t(edge_factor) * n;
    b.reserve_vertices(n);
    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    const std::uint64_t mul = (rng() | 1) & (n - 1), add = rng() & (n - 1);
    for (std::uint64_t e = 0; e < m; ++e) {
        std::uint64_t u = 0, v = 0;
        for (unsigned bit = 0; bit < scale; ++bit) {
            double r = coin(rng);
            bool down = r >= 0.57 + 0.19, right = (r >= 0.57 && r < 0.76) || r >= 0.95;
            u = u << 1 | (down ? 1 : 0);
            v = v << 1 | (right ? 1 : 0);
        }
        u = (u * (mul | 1) + add) & (n - 1);  // odd multiplier: a bijection mod 2^scale
        v = (v * (mul | 1) + add) & (n - 1);
        b.add_edge(std::uint32_t(u), std::uint32_t(v), detail::random_weight(rng, o));
    }
    return b.finish(out);
}

//! A graph of n vertices and m edges whose ends are uniform at random.
inline graph_header generate_uniform(const std::string& out, std::uint64_t n, std::uint64_t m,
                                     const generate_options& o = {}) {
    if (n < 1 || n > max_vertices) throw std::invalid_argument("uniform: n must be 1..2^32-1");
    graph_builder b(o.build);
    b.reserve_vertices(n);
    std::mt19937_64 rng(o.seed);
    for (std::uint64_t e = 0; e < m; ++e) {
        std::uint32_t u = std::uint32_t(rng() % n), v = std::uint32_t(rng() % n);
        b.add_edge(u, v, detail::random_weight(rng, o));
    }
    return b.finish(out);
}

//! A road-like graph of about n vertices: a square grid of jittered points 1000 units apart,
//! each joined to its right and lower neighbour (9 in 10 of them kept), plus n / 64 long
//! "highways" to a point up to 16 cells away; every edge in both directions, weighted by its
//! rounded Euclidean length (at least 1) divided by o.weight_divisor.
inline graph_header generate_road(const std::string& out, std::uint64_t n,
                                  const generate_options& o = {}) {
    if (n < 1 || n > max_vertices) throw std::invalid_argument("road: n must be 1..2^32-1");
    const std::uint64_t side = std::max<std::uint64_t>(1, std::uint64_t(std::sqrt(double(n))));
    const std::uint64_t rows = (n + side - 1) / side;
    build_options bo = o.build;
    bo.undirected = true;
    graph_builder b(bo);
    b.reserve_vertices(n);
    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> jitter(-300.0, 300.0);
    std::vector<double> xy(2 * n);  // RAM like the builder's coordinates
    for (std::uint64_t v = 0; v < n; ++v) {
        xy[2 * v] = double(v % side) * 1000.0 + jitter(rng);
        xy[2 * v + 1] = double(v / side) * 1000.0 + jitter(rng);
        b.set_coordinates(std::uint32_t(v), xy[2 * v], xy[2 * v + 1]);
    }
    auto join = [&](std::uint64_t u, std::uint64_t v) {
        double len = std::hypot(xy[2 * u] - xy[2 * v], xy[2 * u + 1] - xy[2 * v + 1]);
        std::uint32_t w = std::max<std::uint32_t>(1, std::uint32_t(std::llround(len)));
        b.add_edge(std::uint32_t(u), std::uint32_t(v),
                   w / std::max<std::uint32_t>(o.weight_divisor, 1));
    };
    for (std::uint64_t v = 0; v < n; ++v) {
        if (v % side + 1 < side && v + 1 < n && rng() % 10) join(v, v + 1);
        if (v + side < n && rng() % 10) join(v, v + side);
    }
    for (std::uint64_t k = 0; k < n / 64; ++k) {
        std::uint64_t u = rng() % n;
        std::int64_t r = std::int64_t(u / side) + std::int64_t(rng() % 33) - 16;
        std::int64_t c = std::int64_t(u % side) + std::int64_t(rng() % 33) - 16;
        if (r < 0 || c < 0 || std::uint64_t(r) >= rows || std::uint64_t(c) >= side) continue;
        std::uint64_t v = std::uint64_t(r) * side + std::uint64_t(c);
        if (v < n && v != u) join(u, v);
    }
    return b.finish(out);
}

}  // namespace emflow::pipelines::graph
