// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/bfs_levels.hpp: BFS level by level without the queue, for a
// budget that holds two frontier arrays (4 bytes per vertex each: a vertex is in one level
// only). The threads split the frontier, claim each unreached head with a compare-and-swap of
// its distance and append it to the next frontier through a small buffer of their own. The
// edges are mapped into RAM once if they fit the rest of the budget, else read through per-thread
// windows (the next frontier then sorted, so that each thread reads forward; in RAM only a
// large frontier is sorted).
#pragma once

#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>

#include <oneapi/tbb/parallel_sort.h>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! A BFS of one graph file by levels.
class bfs_levels {
    //! Levels of at least this many vertices are expanded by all threads (road-like graphs'
    //! levels of ~2000 are faster on one thread than with the team woken every level).
    static constexpr std::size_t parallel_level = 8192;
    //! Frontiers of at least this many vertices are sorted also when the edges are in RAM.
    static constexpr std::size_t sorted_level = 16384;
    //! Heads a thread collects before it appends them to the next frontier.
    static constexpr std::size_t buffer_size = 1024;

public:
    //! The two frontier arrays' bytes for header h.
    static std::uint64_t frontier_bytes(const graph_header& h) { return 8 * h.vertices; }
    //! Whether opt's budget holds the vertex arrays and the frontiers for threads threads.
    static bool fits(const graph_header& h, const search_options& opt, unsigned threads) {
        return opt.memory_bytes >=
               search_memory_needed(h, false, threads, opt.parents) + frontier_bytes(h);
    }

    //! Plans a BFS of path (header h) with opt on threads threads; fits() must hold.
    bfs_levels(const std::string& path, const graph_header& h, const search_options& opt,
               unsigned threads)
        : file_(path, posix_file::read_only), h_(h), opt_(opt), threads_(threads) {
        const std::uint64_t rest =
            opt.memory_bytes - search_memory_needed(h, false, threads, opt.parents) -
            frontier_bytes(h) + (std::uint64_t(8) << 20);  // no queue: its minimum is free
        resident_ = csr_image::bytes_of(h) <= rest;
        if (!resident_)
            for (unsigned t = 0; t < threads_; ++t)
                readers_.push_back(std::make_unique<csr_reader>(file_, h_, std::size_t(256) << 10));
    }

    //! Hop distances (and parents) from source.
    search_result run(std::uint32_t source) {
        search_result r;
        r.distance.assign(h_.vertices, unreached);
        dist_ = r.distance.data();
        if (opt_.parents) r.parent.assign(h_.vertices, no_parent);
        parent_ = opt_.parents ? r.parent.data() : nullptr;
        if (resident_) image_.emplace(file_, h_);
        // Uninitialized: only the pages a frontier reaches are ever touched.
        std::unique_ptr<std::uint32_t[]> cur(new std::uint32_t[h_.vertices]),
            next(new std::uint32_t[h_.vertices]);
        dist_[source] = 0;
        cur[0] = source;
        std::size_t size = 1;
        for (std::uint64_t level = 1; size > 0; ++level) {
            const std::size_t next_size = expand(cur.get(), size, next.get(), level, r.stats);
            // Ascending heads read the edges forward: windows need it, and in RAM a large
            // frontier gains more from it (cache lines, prefetching) than the sort costs.
            if (!resident_ || next_size >= sorted_level) sort(next.get(), next_size);
            std::swap(cur, next);
            size = next_size;
            r.stats.queue_size = size;
            if (opt_.on_round) opt_.on_round(r.stats);
        }
        for (const std::uint64_t d : r.distance) r.stats.reached += d != unreached;
        for (const auto& rd : readers_) r.stats.bytes_read += rd->bytes_read();
        if (image_) r.stats.bytes_read += image_->bytes_read();
        return r;
    }

private:
    //! Expands the size vertices of frontier at distance level - 1 into next; returns the
    //! next frontier's size.
    std::size_t expand(const std::uint32_t* frontier, std::size_t size, std::uint32_t* next,
                       std::uint64_t level, search_stats& s) {
        std::atomic<std::size_t> next_size{0};
        std::atomic<std::uint64_t> relaxations{0}, claimed{0};
        std::exception_ptr error;
        std::mutex error_mutex;
        const unsigned team_size = size >= parallel_level ? threads_ : 1;
#pragma omp parallel num_threads(team_size) if (team_size > 1)
        {
            const unsigned t = unsigned(omp_get_thread_num()),
                           team = unsigned(omp_get_num_threads());
            std::uint32_t buffer[buffer_size];
            std::size_t held = 0;
            std::uint64_t relaxed = 0, won = 0;
            auto flush = [&] {
                const std::size_t at = next_size.fetch_add(held, std::memory_order_relaxed);
                std::memcpy(next + at, buffer, held * sizeof(std::uint32_t));
                held = 0;
            };
            try {
                const std::size_t b = size * t / team, e = size * (t + 1) / team;
                for (std::size_t i = b; i < e; ++i) {
                    const std::uint32_t u = frontier[i];
                    const adjacency a = image_ ? image_->edges(u) : readers_[t]->edges(u);
                    relaxed += a.size;
                    for (std::size_t k = 0; k < a.size; ++k) {
                        const std::uint32_t v = a.targets[k];
                        if (!claim(v, level)) continue;
                        ++won;
                        if (parent_) parent_[v] = u;
                        buffer[held++] = v;
                        if (held == buffer_size) flush();
                    }
                }
                flush();
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
            }
            relaxations += relaxed;
            claimed += won;
        }
        if (error) std::rethrow_exception(error);
        ++s.rounds;
        s.popped += size, s.expanded += size;
        s.max_bulk = std::max<std::uint64_t>(s.max_bulk, size);
        s.relaxations += relaxations, s.improved += claimed;
        return next_size;
    }

    //! Sets dist[v] to level if v is unreached; true if this call did.
    bool claim(std::uint32_t v, std::uint64_t level) {
        std::uint64_t seen = __atomic_load_n(&dist_[v], __ATOMIC_RELAXED);
        return seen == unreached && __atomic_compare_exchange_n(&dist_[v], &seen, level, false,
                                                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }

    //! Orders a frontier by vertex, so that the windows read forward.
    static void sort(std::uint32_t* f, std::size_t n) {
        if (n >= sorted_level)
            tbb::parallel_sort(f, f + n);
        else
            std::sort(f, f + n);
    }

    posix_file file_;
    graph_header h_;
    search_options opt_;
    unsigned threads_;
    bool resident_ = false;  //!< the edges are read into image_
    std::optional<csr_image> image_;
    std::vector<std::unique_ptr<csr_reader>> readers_;
    std::uint64_t* dist_ = nullptr;
    std::uint32_t* parent_ = nullptr;  //!< null without parents
};

}  // namespace emflow::pipelines::graph::detail
