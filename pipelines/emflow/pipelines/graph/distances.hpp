// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/distances.hpp: distance and parent files (one little-endian u64 per
// vertex; unreached, and no parent, are 2^64-1), written into a file without a name that is
// linked into place when complete (a failure or a kill leaves nothing).
#pragma once

#include <emflow/pipelines/graph/detail/output_file.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow::pipelines::graph {

//! Writes d to path.
inline void write_distances(const std::string& path, const std::vector<std::uint64_t>& d) {
    detail::output_file out(path);
    out.file().write_at(0, d.data(), d.size() * sizeof(std::uint64_t));
    out.commit();
}

//! Writes the parents p (no_parent for none) to path as u64s, 2^64-1 for none.
inline void write_parents(const std::string& path, const std::vector<std::uint32_t>& p) {
    detail::output_file out(path);
    {
        detail::buffered_writer w(out.file(), 0);
        for (const std::uint32_t x : p) w.put(x == no_parent ? no_parent_u64 : std::uint64_t(x));
        w.flush();
    }
    out.commit();
}

//! Reads the file of u64s (distances or parents) at path into RAM.
inline std::vector<std::uint64_t> read_distances(const std::string& path) {
    detail::posix_file f(path, detail::posix_file::read_only);
    const std::uint64_t size = f.size();
    if (size % 8) throw std::runtime_error(path + ": size not a multiple of 8 bytes");
    std::vector<std::uint64_t> d(size / 8);
    f.read_at(0, d.data(), size);
    return d;
}

}  // namespace emflow::pipelines::graph
