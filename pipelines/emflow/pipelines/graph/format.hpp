// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/format.hpp: the on-disk CSR graph format (a 128-byte header, then
// offsets, targets, optional weights, optional coordinates) and reading its header.
#pragma once

#include <emflow/pipelines/graph/detail/posix_file.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace emflow::pipelines::graph {

//! The format's version, stored in every header.
inline constexpr std::uint32_t format_version = 1;
//! The first eight bytes of every graph file.
inline constexpr char format_magic[8] = {'E', 'M', 'F', 'G', 'R', 'A', 'P', 'H'};
//! Vertex ids are 32-bit: at most this many vertices.
inline constexpr std::uint64_t max_vertices = 0xFFFFFFFFull;

//! Bits of graph_header::flags.
enum graph_flag : std::uint32_t {
    flag_weights = 1,      //!< a u32 weight per edge follows the targets (else every weight is 1)
    flag_coordinates = 2,  //!< two doubles (x, y) per vertex follow the edges
    flag_undirected = 4,   //!< every edge is stored in both directions
    flag_astar_scale = 8,  //!< graph_header::astar_scale holds A*'s scale (older files lack it)
};

//! The header at offset 0, little-endian. The sections follow it without gaps: offsets
//! (u64[vertices + 1], edge index of each vertex's first out-edge), targets (u32[edges], sorted
//! by source, then target), weights (u32[edges]) if flag_weights, coordinates (double[2 *
//! vertices]) if flag_coordinates.
struct graph_header {
    char magic[8] = {};              //!< format_magic
    std::uint32_t version = 0;       //!< format_version
    std::uint32_t flags = 0;         //!< graph_flag bits
    std::uint64_t vertices = 0;      //!< vertex count n (ids 0 .. n-1)
    std::uint64_t edges = 0;         //!< directed edge count m
    std::uint32_t min_weight = 0;    //!< smallest weight (1 without weights; 0 without edges)
    std::uint32_t max_weight = 0;    //!< largest weight (1 without weights; 0 without edges)
    std::uint64_t weight_sum = 0;    //!< sum of all weights
    double astar_scale = 0;          //!< with flag_astar_scale: the smallest weight / length
                                     //!< over the edges of nonzero length (0 if none)
    std::uint64_t reserved[9] = {};  //!< zero

    //! True if the edges carry weights.
    bool weighted() const { return flags & flag_weights; }
    //! True if the vertices carry coordinates.
    bool has_coordinates() const { return flags & flag_coordinates; }
    //! True if astar_scale holds the scale of A*'s heuristic (else A* scans the edges for it).
    bool has_astar_scale() const { return flags & flag_astar_scale; }
    //! Byte offset of offsets[0].
    static constexpr std::uint64_t offsets_at() { return 128; }
    //! Byte offset of targets[0].
    std::uint64_t targets_at() const { return offsets_at() + 8 * (vertices + 1); }
    //! Byte offset of weights[0] (if weighted()).
    std::uint64_t weights_at() const { return targets_at() + 4 * edges; }
    //! Byte offset of the coordinates (if has_coordinates()).
    std::uint64_t coordinates_at() const { return weights_at() + (weighted() ? 4 * edges : 0); }
    //! The file's size.
    std::uint64_t file_bytes() const {
        return coordinates_at() + (has_coordinates() ? 16 * vertices : 0);
    }
};
static_assert(sizeof(graph_header) == 128, "the header is 128 bytes on disk");

//! Reads and validates the header of the graph file at path; throws std::runtime_error naming
//! the file for a missing file, a foreign or truncated file, another version, or a stored A*
//! scale that is not a finite number >= 0 or comes without coordinates.
inline graph_header read_header(const std::string& path) {
    detail::posix_file f(path, detail::posix_file::read_only);
    graph_header h;
    if (f.size() < sizeof h) throw std::runtime_error(path + ": not an emflow graph (too short)");
    f.read_at(0, &h, sizeof h);
    if (std::memcmp(h.magic, format_magic, sizeof h.magic) != 0)
        throw std::runtime_error(path + ": not an emflow graph (bad magic)");
    if (h.version != format_version)
        throw std::runtime_error(path + ": graph format version " + std::to_string(h.version) +
                                 ", expected " + std::to_string(format_version));
    if (h.vertices > max_vertices || h.file_bytes() != f.size())
        throw std::runtime_error(path + ": truncated or inconsistent graph file (" +
                                 std::to_string(f.size()) + " bytes, header says " +
                                 std::to_string(h.file_bytes()) + ")");
    if (h.has_astar_scale() &&
        (!h.has_coordinates() || !(h.astar_scale >= 0) || !std::isfinite(h.astar_scale)))
        throw std::runtime_error(path + ": bad A* scale " + std::to_string(h.astar_scale) +
                                 (h.has_coordinates() ? "" : " (the graph has no coordinates)"));
    return h;
}

}  // namespace emflow::pipelines::graph
