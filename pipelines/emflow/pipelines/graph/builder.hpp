// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/builder.hpp: builds a CSR graph file from edges in any order, larger
// than memory: they are sorted externally (emflow's sorted_runs: parallel block quicksort, then
// the sort node's runs and multiway merge on emflow's disks), then written out. With coordinates
// the header also gets A*'s scale, found edge by edge as they are written (detail/astar_scale.hpp).
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/nodes/sorted_runs.hpp>
#include <emflow/pipelines/graph/detail/astar_scale.hpp>
#include <emflow/pipelines/graph/detail/edge_order.hpp>
#include <emflow/pipelines/graph/detail/output_file.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/format.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow::pipelines::graph {

//! How edges become the graph.
struct build_options {
    bool undirected = false;       //!< add every edge in both directions
    bool drop_self_loops = false;  //!< leave out edges (v, v)
    bool drop_parallel = false;    //!< keep only the lightest of edges with equal ends
    bool weighted = true;          //!< store weights (false: every weight is 1, none stored)
    std::uint64_t memory_bytes = std::uint64_t(256) << 20;  //!< the sort's RAM (at least 8 MiB)
};

//! Collects edges (and coordinates), then writes the graph file with finish().
class graph_builder {
    using sorter_type = sorted_runs<detail::raw_edge, detail::by_source_target>;

public:
    //! A builder with opt; throws std::invalid_argument for a budget under 8 MiB.
    explicit graph_builder(build_options opt = {}) : opt_(opt) {
        if (opt.memory_bytes < (std::uint64_t(8) << 20))
            throw std::invalid_argument("graph builder: memory budget must be at least 8 MiB");
        ensure_external_memory();
        // Half the budget for the runs being formed, all of it for their merge (the buffer is
        // gone by then).
        sorter_ = std::make_unique<sorter_type>(opt.memory_bytes / 2 / sizeof(detail::raw_edge));
    }

    //! Adds the edge (u, v) of weight w.
    void add_edge(std::uint32_t u, std::uint32_t v, std::uint32_t w = 1) {
        if (u == v && opt_.drop_self_loops) return;
        if (!opt_.weighted) w = 1;
        note_vertex(std::max(u, v));
        sorter_->push({u, v, w});
        if (opt_.undirected && u != v) sorter_->push({v, u, w});
    }
    //! Sets the coordinates of v (vertices without are at (0, 0)); the coordinates are held in
    //! RAM (16 bytes per vertex) until finish().
    void set_coordinates(std::uint32_t v, double x, double y) {
        note_vertex(v);
        if (coords_.size() < 2 * (std::size_t(v) + 1)) coords_.resize(2 * (std::size_t(v) + 1));
        coords_[2 * std::size_t(v)] = x;
        coords_[2 * std::size_t(v) + 1] = y;
        has_coords_ = true;
    }
    //! Makes the graph have at least n vertices (isolated ones included).
    void reserve_vertices(std::uint64_t n) {
        if (n > max_vertices)
            throw std::invalid_argument("graph builder: more than 2^32-1 vertices");
        if (n > vertices_) vertices_ = n;
    }
    //! Edges added so far (both directions counted).
    std::uint64_t edges_added() const { return sorter_->size(); }

    //! Sorts the edges and writes the graph to path (into a file without a name, linked
    //! into place when complete: a failure or a kill leaves nothing); returns its header.
    graph_header finish(const std::string& path) {
        detail::output_file out(path);
        detail::output_file weights(path + ".weights");  // scratch: never committed
        graph_header h = write(out.file(), weights.file());
        out.commit();
        return h;
    }

private:
    void note_vertex(std::uint32_t v) {
        if (std::uint64_t(v) + 1 > vertices_) vertices_ = std::uint64_t(v) + 1;
    }

    graph_header write(detail::posix_file& out, detail::posix_file& weights) {
        graph_header h;
        std::memcpy(h.magic, format_magic, sizeof h.magic);
        h.version = format_version;
        h.vertices = vertices_;
        h.flags = (opt_.weighted ? std::uint32_t(flag_weights) : 0u) |
                  (has_coords_ ? std::uint32_t(flag_coordinates) : 0u) |
                  (opt_.undirected ? std::uint32_t(flag_undirected) : 0u) |
                  (has_coords_ ? std::uint32_t(flag_astar_scale) : 0u);
        if (has_coords_) coords_.resize(2 * h.vertices);  // vertices without are at (0, 0)
        write_edges(h, out, weights);
        append_weights(h, out, weights);
        append_coordinates(h, out);
        out.write_at(0, &h, sizeof h);
        return h;
    }

    //! Offsets and targets in place, weights into their own file (their position depends on the
    //! edge count, known at the end).
    void write_edges(graph_header& h, detail::posix_file& out, detail::posix_file& weights) {
        detail::buffered_writer offsets(out, h.offsets_at());
        detail::buffered_writer targets(out, h.targets_at());
        detail::buffered_writer wout(weights, 0);
        std::uint64_t m = 0, next_vertex = 0, min_w = UINT32_MAX, max_w = 0, sum = 0;
        std::optional<detail::raw_edge> last;
        detail::astar_scale_finder scale;
        sorter_->each(std::size_t(opt_.memory_bytes), [&](const detail::raw_edge& e) {
            if (opt_.drop_parallel && last && last->source == e.source && last->target == e.target)
                return;
            last = e;
            for (; next_vertex <= e.source; ++next_vertex) offsets.put(m);
            targets.put(e.target);
            if (opt_.weighted) wout.put(e.weight);
            if (has_coords_) scale.add(coords_.data(), e.source, e.target, e.weight);
            min_w = std::min<std::uint64_t>(min_w, e.weight);
            max_w = std::max<std::uint64_t>(max_w, e.weight);
            sum += e.weight;
            ++m;
        });
        for (; next_vertex <= h.vertices; ++next_vertex) offsets.put(m);
        offsets.flush();
        targets.flush();
        wout.flush();
        sorter_.reset();
        h.edges = m;
        h.min_weight = m ? std::uint32_t(min_w) : 0;
        h.max_weight = std::uint32_t(max_w);
        h.weight_sum = sum;
        h.astar_scale = has_coords_ ? scale.scale() : 0;
    }

    void append_weights(const graph_header& h, detail::posix_file& out,
                        const detail::posix_file& weights) {
        if (!opt_.weighted) return;
        std::vector<char> buf(1 << 20);
        std::uint64_t done = 0, total = 4 * h.edges;
        while (done < total) {
            std::size_t k = std::size_t(std::min<std::uint64_t>(buf.size(), total - done));
            weights.read_at(done, buf.data(), k);
            out.write_at(h.weights_at() + done, buf.data(), k);
            done += k;
        }
    }

    void append_coordinates(const graph_header& h, detail::posix_file& out) {
        if (!has_coords_) return;
        out.write_at(h.coordinates_at(), coords_.data(), coords_.size() * sizeof(double));
        std::vector<double>().swap(coords_);
    }

    build_options opt_;
    std::unique_ptr<sorter_type> sorter_;
    std::uint64_t vertices_ = 0;
    std::vector<double> coords_;
    bool has_coords_ = false;
};

}  // namespace emflow::pipelines::graph
