// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/import.hpp: graph files from DIMACS shortest-path files (.gr, .co;
// 1-based ids become 0-based), SNAP text edge lists and binary edge lists.
#pragma once

#include <emflow/pipelines/graph/builder.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/detail/text_lines.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace emflow::pipelines::graph {

//! Writes the graph of the DIMACS file gr ("c" comments, one "p sp n m" line, "a u v w" arcs,
//! ids 1..n) to out, with the coordinates of the .co file co ("v id x y") unless co is empty.
//! Malformed lines, ids out of range and weights beyond 2^32-1 are errors naming file and line.
inline graph_header import_dimacs(const std::string& gr, const std::string& co,
                                  const std::string& out, build_options opt = {}) {
    graph_builder b(opt);
    detail::text_lines lines(gr);
    std::uint64_t n = 0;
    bool have_problem = false;
    while (lines.next()) {
        detail::fields f(lines);
        if (f.done()) continue;
        std::string kind = f.word("line type");
        if (kind == "c") continue;
        if (kind == "p") {
            if (have_problem) throw lines.error("second problem line");
            if (f.word("problem type") != "sp") throw lines.error("problem type is not 'sp'");
            n = f.number("vertex count", max_vertices);
            f.number("arc count", UINT64_MAX);
            f.expect_end();
            b.reserve_vertices(n);
            have_problem = true;
        } else if (kind == "a") {
            if (!have_problem) throw lines.error("arc before the problem line");
            std::uint64_t u = f.number("source", UINT64_MAX), v = f.number("target", UINT64_MAX);
            std::uint64_t w = f.number("weight", UINT32_MAX);
            f.expect_end();
            if (u < 1 || u > n || v < 1 || v > n)
                throw lines.error("vertex id out of range 1.." + std::to_string(n));
            b.add_edge(std::uint32_t(u - 1), std::uint32_t(v - 1), std::uint32_t(w));
        } else {
            throw lines.error("unknown line type '" + kind + "'");
        }
    }
    if (!have_problem) throw lines.error("no problem line 'p sp n m'");
    if (!co.empty()) {
        detail::text_lines cl(co);
        while (cl.next()) {
            detail::fields f(cl);
            if (f.done()) continue;
            std::string kind = f.word("line type");
            if (kind == "c" || kind == "p") continue;
            if (kind != "v") throw cl.error("unknown line type '" + kind + "'");
            std::uint64_t v = f.number("vertex id", UINT64_MAX);
            if (v < 1 || v > n) throw cl.error("vertex id out of range 1.." + std::to_string(n));
            double x = f.real("x"), y = f.real("y");
            f.expect_end();
            b.set_coordinates(std::uint32_t(v - 1), x, y);
        }
    }
    return b.finish(out);
}

//! Writes the graph of the SNAP edge list in ("u v" or "u v w" per line, 0-based ids, '#'
//! comments, blank lines; the first edge line decides whether weights are given) to out. The
//! vertex count is the largest id + 1.
inline graph_header import_snap(const std::string& in, const std::string& out,
                                build_options opt = {}) {
    std::optional<graph_builder> b;
    detail::text_lines lines(in);
    bool weighted = false;
    while (lines.next()) {
        detail::fields f(lines);
        if (f.done() || lines.line().find_first_not_of(" \t") == lines.line().find('#')) continue;
        std::uint64_t u = f.number("source", max_vertices - 1);
        std::uint64_t v = f.number("target", max_vertices - 1);
        if (!b) {
            weighted = !f.done();
            opt.weighted = weighted;
            b.emplace(opt);
        }
        std::uint64_t w = weighted ? f.number("weight", UINT32_MAX) : 1;
        f.expect_end();
        b->add_edge(std::uint32_t(u), std::uint32_t(v), std::uint32_t(w));
    }
    if (!b) {
        opt.weighted = false;
        b.emplace(opt);
    }
    return b->finish(out);
}

//! The layout of a binary edge list: little-endian records (u, v[, w]).
struct binary_layout {
    unsigned id_bytes = 4;  //!< 4 (u32 ids) or 8 (u64 ids)
    bool weights = false;   //!< a u32 weight follows each pair
};

//! Writes the graph of the binary edge list in (records as layout says) to out; a truncated
//! record or an id beyond 2^32-2 is an error naming the file and the record's offset.
inline graph_header import_binary(const std::string& in, const std::string& out,
                                  binary_layout layout, build_options opt = {}) {
    if (layout.id_bytes != 4 && layout.id_bytes != 8)
        throw std::invalid_argument("binary edge list: ids must be 4 or 8 bytes");
    opt.weighted = layout.weights;
    graph_builder b(opt);
    detail::posix_file f(in, detail::posix_file::read_only);
    const std::uint64_t size = f.size(), record = 2 * layout.id_bytes + (layout.weights ? 4 : 0);
    if (size % record)
        throw std::runtime_error(in + ": truncated record at offset " +
                                 std::to_string(size / record * record) + " (records of " +
                                 std::to_string(record) + " bytes)");
    detail::buffered_reader r(f, 0, size);
    for (std::uint64_t at = 0; at < size; at += record) {
        std::uint64_t u = 0, v = 0;
        std::uint32_t w = 1;
        if (layout.id_bytes == 4) {
            std::uint32_t a, c;
            r.get(a), r.get(c);
            u = a, v = c;
        } else {
            r.get(u), r.get(v);
        }
        if (layout.weights) r.get(w);
        if (u >= max_vertices || v >= max_vertices)
            throw std::runtime_error(in + ": vertex id beyond 2^32-2 at offset " +
                                     std::to_string(at));
        b.add_edge(std::uint32_t(u), std::uint32_t(v), w);
    }
    return b.finish(out);
}

}  // namespace emflow::pipelines::graph
