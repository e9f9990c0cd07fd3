// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/distances.hpp: distance files (one little-endian u64 per vertex,
// unreached = 2^64-1), written under a temporary name and renamed when complete.
#pragma once

#include <emflow/pipelines/graph/detail/posix_file.hpp>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow::pipelines::graph {

//! Writes d to path (through path + ".tmp", removed on failure).
inline void write_distances(const std::string& path, const std::vector<std::uint64_t>& d) {
    const std::string tmp = path + ".tmp";
    try {
        {
            detail::posix_file f(tmp, detail::posix_file::create);
            f.write_at(0, d.data(), d.size() * sizeof(std::uint64_t));
        }
        if (std::rename(tmp.c_str(), path.c_str()) != 0)
            throw std::runtime_error("cannot rename " + tmp + " to " + path);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
}

//! Reads the distance file at path (into RAM).
inline std::vector<std::uint64_t> read_distances(const std::string& path) {
    detail::posix_file f(path, detail::posix_file::read_only);
    const std::uint64_t size = f.size();
    if (size % 8) throw std::runtime_error(path + ": size not a multiple of 8 bytes");
    std::vector<std::uint64_t> d(size / 8);
    f.read_at(0, d.data(), size);
    return d;
}

}  // namespace emflow::pipelines::graph
