// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/csr_reader.hpp: reads vertices' out-edges from a graph file in
// ascending vertex order through windows (one for offsets, one for targets, one for weights);
// a window read grows while the reads run forward (the kernel prefetching the next one) and
// shrinks to a page after a jump. A search whose budget holds the edges maps them once into a
// csr_image instead: windows re-read the pages of every round's sparse bulk, round after round.
#pragma once

#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/format.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! A forward window over one section of a file.
class file_window {
public:
    //! A window of window_bytes over f.
    file_window(const posix_file& f, std::size_t window_bytes)
        : f_(f), buf_(std::max<std::size_t>(window_bytes, min_read)) {}
    //! Copies [offset, offset + n) into dst; requests ahead of the window refill it there.
    void read(std::uint64_t offset, void* dst, std::size_t n) {
        if (n == 0) return;  // a vertex without out-edges: dst may be null
        if (offset < begin_ || offset + n > begin_ + len_) {
            if (n > buf_.size()) {
                f_.read_at(offset, dst, n);
                bytes_ += n;
                return;
            }
            // Forward runs double the read up to the window; a jump reads one page again, so a
            // sparse bulk does not pull whole windows per vertex.
            const bool sequential = offset >= begin_ + len_ && offset < begin_ + len_ + chunk_;
            chunk_ = sequential ? std::min(2 * chunk_, buf_.size()) : min_read;
            const std::size_t want = std::max<std::size_t>(chunk_, n);
            begin_ = offset;
            len_ = f_.read_some(offset, buf_.data(), want);
            bytes_ += len_;
            if (sequential) f_.prefetch(offset + len_, chunk_);
            if (len_ < n) f_.read_at(offset, buf_.data(), n);  // raises the end-of-file error
        }
        std::memcpy(dst, buf_.data() + (offset - begin_), n);
    }
    //! Bytes read from the file so far.
    std::uint64_t bytes_read() const { return bytes_; }

private:
    const posix_file& f_;
    std::vector<char> buf_;
    static constexpr std::size_t min_read = 4096;
    std::uint64_t begin_ = 0, len_ = 0, bytes_ = 0;
    std::size_t chunk_ = min_read;
};

//! One vertex's out-edges.
struct adjacency {
    const std::uint32_t* targets;  //!< heads
    const std::uint32_t* weights;  //!< weights, or nullptr (all 1)
    std::size_t size;              //!< out-degree
};

//! Out-edges of vertices asked for in ascending order (others work, only slower).
class csr_reader {
public:
    //! Reader of f with header h, window_bytes per section window.
    csr_reader(const posix_file& f, const graph_header& h, std::size_t window_bytes)
        : h_(h), offsets_(f, window_bytes / 8), targets_(f, window_bytes),
          weights_(f, window_bytes) {}
    //! The out-edges of v, valid until the next call.
    adjacency edges(std::uint32_t v) {
        std::uint64_t range[2];
        offsets_.read(h_.offsets_at() + 8 * std::uint64_t(v), range, sizeof range);
        std::size_t deg = std::size_t(range[1] - range[0]);
        t_.resize(deg);
        targets_.read(h_.targets_at() + 4 * range[0], t_.data(), 4 * deg);
        if (!h_.weighted()) return {t_.data(), nullptr, deg};
        w_.resize(deg);
        weights_.read(h_.weights_at() + 4 * range[0], w_.data(), 4 * deg);
        return {t_.data(), w_.data(), deg};
    }
    //! Bytes read from the file so far.
    std::uint64_t bytes_read() const {
        return offsets_.bytes_read() + targets_.bytes_read() + weights_.bytes_read();
    }

private:
    graph_header h_;
    file_window offsets_, targets_, weights_;
    std::vector<std::uint32_t> t_, w_;
};

//! The offsets, targets and weights of a graph, mapped into RAM in one pass (read-only, private,
//! populated at once: the page cache's pages are mapped, not copied, and no page faults later).
class csr_image {
public:
    //! Bytes a graph with header h takes in RAM.
    static std::uint64_t bytes_of(const graph_header& h) {
        return h.coordinates_at() - h.offsets_at();
    }
    //! Maps f's edges (header h); throws std::runtime_error for a file shorter than h says.
    csr_image(const posix_file& f, const graph_header& h) : h_(h), bytes_(h.coordinates_at()) {
        if (f.size() < bytes_)
            throw std::runtime_error(f.path() + ": truncated (" + std::to_string(f.size()) +
                                     " bytes, the edges end at " + std::to_string(bytes_) + ")");
        void* p = ::mmap(nullptr, bytes_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd(), 0);
        if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), f.path());
        base_ = static_cast<const std::byte*>(p);
        offsets_ = reinterpret_cast<const std::uint64_t*>(base_ + h.offsets_at());
        targets_ = reinterpret_cast<const std::uint32_t*>(base_ + h.targets_at());
        if (h.weighted()) weights_ = reinterpret_cast<const std::uint32_t*>(base_ + h.weights_at());
    }
    ~csr_image() { ::munmap(const_cast<std::byte*>(base_), bytes_); }
    csr_image(const csr_image&) = delete;
    csr_image& operator=(const csr_image&) = delete;
    //! The out-edges of v (any order, any thread).
    adjacency edges(std::uint32_t v) const {
        const std::uint64_t b = offsets_[v], e = offsets_[std::size_t(v) + 1];
        return {targets_ + b, weights_ ? weights_ + b : nullptr, std::size_t(e - b)};
    }
    //! Bytes read from the file.
    std::uint64_t bytes_read() const { return bytes_of(h_); }

private:
    graph_header h_;
    std::size_t bytes_;                // mapped from offset 0: the header, then the sections
    const std::byte* base_ = nullptr;  // page-aligned: the sections' 8-byte alignment holds
    const std::uint64_t* offsets_ = nullptr;
    const std::uint32_t* targets_ = nullptr;
    const std::uint32_t* weights_ = nullptr;
};

}  // namespace emflow::pipelines::graph::detail
