// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/csr_reader.hpp: reads vertices' out-edges from a graph file in
// ascending vertex order through windows (one for offsets, one for targets, one for weights);
// a window read grows while the reads run forward (the kernel prefetching the next one) and
// shrinks to a page after a jump. Refills after a jump go through a block cache if given (a road
// wavefront's sparse bulks re-read the same pages round after round), while its hit share pays.
// A search whose budget holds the edges maps them once into a csr_image instead.
#pragma once

#include <emflow/pipelines/graph/detail/block_cache.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>
#include <emflow/pipelines/graph/format.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! How a window used its block cache.
struct cache_counts {
    std::uint64_t lookups = 0;   //!< refills looked up in the cache
    std::uint64_t hits = 0;      //!< of those, served from it
    std::uint64_t bypassed = 0;  //!< refills that read the file past the cache (switched off)
};

//! A forward window over one section of a file.
class file_window {
public:
    //! A window of window_bytes over f; with a cache (shared by the sections and threads),
    //! refills look their blocks up there first, and a refill that misses puts the blocks it
    //! asked for in. The cache is switched off while it does not pay: see note_lookup.
    file_window(const posix_file& f, std::size_t window_bytes, block_cache* cache = nullptr)
        : f_(f), cache_(cache), buf_(std::max<std::size_t>(window_bytes, 2 * min_read)) {}
    //! Copies [offset, offset + n) into dst; requests ahead of the window refill it there.
    void read(std::uint64_t offset, void* dst, std::size_t n) {
        if (n == 0) return;  // a vertex without out-edges: dst may be null
        if (offset < begin_ || offset + n > begin_ + len_) {
            if (n + (cache_ ? block_cache::block_bytes : 0) > buf_.size()) {
                f_.read_at(offset, dst, n);
                bytes_ += n;
                return;
            }
            // Forward runs double the read up to the window; a jump reads one page again, so a
            // sparse bulk does not pull whole windows per vertex. With the cache on, a run grows
            // only by reads within the next block (a wavefront's bulk stays in the cache).
            const std::uint64_t reach = cache_ && pause_left_ == 0 && chunk_ < direct_run
                                            ? block_cache::block_bytes
                                            : chunk_;
            const bool sequential = offset >= begin_ + len_ && offset < begin_ + len_ + reach;
            if (use_cache(sequential) && from_cache(offset, dst, n)) return;
            fill(offset, n, sequential);
        }
        std::memcpy(dst, buf_.data() + (offset - begin_), n);
    }
    //! Bytes read from the file so far.
    std::uint64_t bytes_read() const { return bytes_; }
    //! How it used the cache so far.
    const cache_counts& cache_use() const { return counts_; }

private:
    static constexpr std::size_t min_read = 4096;
    //! Forward runs from this many bytes on read the file only (a scan, not a wavefront).
    static constexpr std::size_t direct_run = std::size_t(64) << 10;
    //! The switch: every `epoch` lookups, a hit share below 1 / min_hit_inverse switches the
    //! cache off for `pause_` refills, doubled on each failed probe up to max_pause (a lookup
    //! and an insert cost a lock and a copy; a hit saves a pread, whose page the window would
    //! also keep for the next vertices). The first epoch, and the first after a pause, only
    //! fill the cache.
    static constexpr std::uint32_t epoch = 256, min_hit_inverse = 8;
    static constexpr std::uint64_t min_pause = 1024, max_pause = 16384;

    bool use_cache(bool sequential) {
        if (!cache_) return false;
        if (pause_left_ > 0) {
            if (--pause_left_ == 0) warm_ = true;
            ++counts_.bypassed;
            return false;
        }
        return !sequential || chunk_ < direct_run;
    }
    //! Copies the request from the cache into dst if it holds all its blocks (the window
    //! stays as it is).
    bool from_cache(std::uint64_t offset, void* dst, std::size_t n) {
        const bool hit = cache_->read(offset, n, static_cast<char*>(dst));
        note_lookup(hit);
        if (hit) chunk_ = min_read;  // a run starts again after the hit
        return hit;
    }
    void note_lookup(bool hit) {
        ++counts_.lookups, ++looked_;
        if (hit) ++counts_.hits, ++hits_;
        if (looked_ < epoch) return;
        if (warm_) {  // the epoch that filled a cold or stale cache is not judged
            warm_ = false;
        } else if (hits_ * min_hit_inverse < looked_) {
            pause_left_ = pause_;
            pause_ = std::min(2 * pause_, max_pause);
        } else {
            pause_ = min_pause;
        }
        looked_ = hits_ = 0;
    }
    //! Refills from the file at offset (with a cache: from its block on, putting the request's
    //! whole blocks in the cache).
    void fill(std::uint64_t offset, std::size_t n, bool sequential) {
        chunk_ = sequential ? std::min(2 * chunk_, buf_.size()) : min_read;
        begin_ = cache_ ? offset / block_cache::block_bytes * block_cache::block_bytes : offset;
        const std::size_t want = std::max<std::size_t>(chunk_, std::size_t(offset + n - begin_));
        len_ = f_.read_some(begin_, buf_.data(), want);
        bytes_ += len_;
        if (sequential) f_.prefetch(begin_ + len_, chunk_);
        if (offset + n > begin_ + len_) f_.read_at(offset, buf_.data(), n);  // end-of-file error
        if (cache_ && pause_left_ == 0 && chunk_ < direct_run) {
            const std::uint64_t first = begin_ / block_cache::block_bytes,
                                end = std::min((offset + n - 1) / block_cache::block_bytes + 1,
                                               (begin_ + len_) / block_cache::block_bytes);
            cache_->insert(first, std::size_t(end - first), buf_.data());
        }
    }

    const posix_file& f_;
    block_cache* cache_;
    std::vector<char> buf_;
    std::uint64_t begin_ = 0, len_ = 0, bytes_ = 0;
    std::size_t chunk_ = min_read;
    std::uint32_t looked_ = 0, hits_ = 0;  // this epoch's lookups and hits
    std::uint64_t pause_left_ = 0, pause_ = min_pause;
    bool warm_ = true;  // this epoch fills the cache, its hits not judged
    cache_counts counts_;
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
    //! Reader of f with header h, window_bytes per section window, refilling them through
    //! cache if given.
    csr_reader(const posix_file& f, const graph_header& h, std::size_t window_bytes,
               block_cache* cache = nullptr)
        : h_(h), offsets_(f, window_bytes / 8, cache), targets_(f, window_bytes, cache),
          weights_(f, window_bytes, cache) {}
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
    //! How its windows used the cache so far.
    cache_counts cache_use() const {
        cache_counts c;
        for (const file_window* w : {&offsets_, &targets_, &weights_}) {
            c.lookups += w->cache_use().lookups;
            c.hits += w->cache_use().hits;
            c.bypassed += w->cache_use().bypassed;
        }
        return c;
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
