// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/astar_scale.hpp: the scale of A*'s Euclidean heuristic, the
// smallest weight / length over all edges of nonzero length: tracked edge by edge (the builder,
// which stores it in the header) or found by a scan of a graph file (files without it).
#pragma once

#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/format.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! The smallest weight / Euclidean length over the edges shown to it. It compares squares (one
//! root at the end); lengths are sqrt(dx^2 + dy^2) (std::hypot's care for overflow is not needed
//! for coordinates and cost a tenth of a second per 4 M edges). The builder and the scan run
//! this same code on the same doubles, so a stored scale equals a scanned one exactly.
class astar_scale_finder {
public:
    //! Notes the edge (u, v) of weight w; xy: x, y of every vertex.
    void add(const double* xy, std::uint32_t u, std::uint32_t v, std::uint32_t w) {
        const double dx = xy[2 * std::size_t(u)] - xy[2 * std::size_t(v)],
                     dy = xy[2 * std::size_t(u) + 1] - xy[2 * std::size_t(v) + 1];
        const double len2 = dx * dx + dy * dy, wd = w;
        if (len2 > 0) scale2_ = std::min(scale2_, wd * wd / len2);
    }
    //! The smallest weight / length so far, 0 if no edge of nonzero length was shown.
    double scale() const { return std::isinf(scale2_) ? 0.0 : std::sqrt(scale2_); }

private:
    double scale2_ = std::numeric_limits<double>::infinity();
};

//! The scale of the graph in f (header h, coordinates xy) by a scan of all its edges, in
//! vertex order through windows.
inline double scan_astar_scale(const posix_file& f, const graph_header& h,
                               const std::vector<double>& xy) {
    csr_reader r(f, h, std::size_t(1) << 20);
    astar_scale_finder s;
    for (std::uint64_t u = 0; u < h.vertices; ++u) {
        const adjacency a = r.edges(std::uint32_t(u));
        for (std::size_t k = 0; k < a.size; ++k)
            s.add(xy.data(), std::uint32_t(u), a.targets[k], a.weights ? a.weights[k] : 1);
    }
    return s.scale();
}

}  // namespace emflow::pipelines::graph::detail
