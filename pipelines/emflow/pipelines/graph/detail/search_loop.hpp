// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/search_loop.hpp: label-correcting delta-stepping on the
// bulk-parallel queue, as rounds of time-forward processing's loop (tfp::time_forward_loop): each
// round pops the bulk of items before (min key + Δ) with bulk_pop_limit and processes it in
// phases: a phase sorts its items by vertex (so the graph file is read forward; a small phase in
// RAM stays unsorted), skips stale items against the in-RAM distance array and relaxes the
// out-edges in OpenMP threads with an atomic min. An improved vertex still before the round's
// limit goes to its thread's frontier in RAM, the round's next phase (delta-stepping's light
// edges: the queue's run formation and merges are paid only for the items the round cannot
// settle); the others are bulk-pushed under the thread's id. Each item names the vertex that
// pushed it: the parent, recorded when the item settles its vertex. Within a phase a vertex is
// expanded at most once (its items have distinct keys and only the smallest can equal its
// distance), so the expanded flags and parents have one writer per phase. The frontiers hold at
// most as many items as a bulk (counted in the budget), the rest is pushed. The edges are mapped
// into RAM once if they fit half the budget left after the vertex arrays, else through per-thread
// windows in vertex order and a block cache. Δ follows delta_rule after every round; the rule needs
// more than a bulk's size (the phases, the pushes' priorities, the waste), so the round tells it,
// and delta_limit only turns Δ into limits. With a target, the loop ends once the smallest key
// exceeds the target's distance (keys are lower bounds: the heuristic never overestimates).
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/detail/delta_rule.hpp>
#include <emflow/pipelines/graph/detail/queue_item.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/search_options.hpp>
#include <emflow/pipelines/tfp/time_forward.hpp>
#include <emflow/ppq.hpp>

#include <oneapi/tbb/parallel_sort.h>

#include <omp.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! What one thread counted in a round (a cache line of its own: threads count per edge).
struct alignas(64) round_counts {
    std::uint64_t expanded = 0, stale = 0, relaxations = 0, improved = 0, queued = 0;
    std::uint64_t reexpanded = 0, wasted = 0;
    std::uint64_t min_key = UINT64_MAX, max_key = 0;  //!< of the items queued
};

//! A thread's frontier: the items it keeps for the round's next phase, at most a fixed number
//! (an uninitialized array: pages are touched only as items come, a push is a compare and a
//! store; a cache line of its own for the size).
struct alignas(64) frontier {
    std::unique_ptr<queue_item[]> items;  //!< the items, [0, size)
    std::size_t size = 0;                 //!< items held
};

//! The limit rule of the search's time_forward_loop: every item before top + Δ, until the
//! smallest key exceeds the target's distance (dist: the distance array, read atomically).
struct delta_limit {
    const delta_rule& rule;
    const std::uint64_t* dist;
    std::optional<std::uint32_t> target;

    queue_item next_limit(const queue_item& top) const {
        const std::uint64_t delta = rule.delta();
        return {top.key > UINT64_MAX - delta ? UINT64_MAX : top.key + delta, 0};
    }
    void observe(std::size_t /*bulk*/, bool /*truncated*/) const {}  // the round tells rule
    //! A*: nothing left can lower d(t); t's own item (key d(t)) is still expanded, which
    //! records its parent.
    bool done(const queue_item& top) const {
        return target && top.key > __atomic_load_n(&dist[*target], __ATOMIC_RELAXED);
    }
};

//! A search of the graph at path; Heuristic: std::uint64_t(std::uint32_t v), a lower bound of
//! the distance from v to the target (0 without one).
template <class Heuristic>
class search_loop {
    using queue_type = parallel_priority_queue<queue_item, later_key>;
    //! Bulks of at least this many vertices are relaxed by all threads.
    static constexpr std::size_t parallel_bulk = 1024;

public:
    //! Plans the memory of a search of path (header h) with opt; unit_weights: every weight 1
    //! (BFS); extra_bytes: vertex arrays the caller holds besides the distances. Throws
    //! emflow::config_error naming the budget needed if the vertex arrays do not fit.
    search_loop(const std::string& path, const graph_header& h, const search_options& opt,
                Heuristic heuristic, bool unit_weights, int start_lmf, bool astar)
        : file_(path, posix_file::read_only), h_(h), opt_(opt), heuristic_(std::move(heuristic)),
          unit_(unit_weights),
          threads_(opt.threads ? opt.threads : unsigned(std::max(1, omp_get_max_threads()))),
          rule_(opt.log_delta >= 0 ? opt.log_delta : start_lmf, opt.log_delta >= 0, opt.adaptive),
          counts_(threads_) {
        const std::uint64_t need = search_memory_needed(h, astar, threads_, opt.parents);
        if (opt.memory_bytes < need)
            throw config_error("a graph of " + std::to_string(h.vertices) +
                               " vertices needs a memory budget of at least " +
                               std::to_string((need + (1 << 20) - 1) >> 20) + " MiB");
        // The minimal bulk, its frontiers and the queue counted in need are part of the rest.
        const std::uint64_t rest = opt.memory_bytes - (need - (std::uint64_t(8) << 20));
        const std::uint64_t image_bytes = csr_image::bytes_of(h);
        resident_ = image_bytes <= rest / 2;
        // Else windows, and a block cache of a quarter taken from the queue: the bulk (which sets
        // Δ and so the windows' passes) stays as large as without the cache.
        const std::uint64_t graph_bytes = resident_ ? image_bytes : rest / 4;
        bulk_cap_ = std::max<std::uint64_t>(
            65536, (rest - (resident_ ? graph_bytes : 0)) / 8 / sizeof(queue_item));
        // the bulk, and the frontiers of its later phases; at least rest / 4 is left for the queue
        queue_bytes_ = rest - graph_bytes - 2 * bulk_cap_ * sizeof(queue_item);
        frontier_cap_ = bulk_cap_ / threads_;
        if (resident_) return;
        cache_.emplace(block_cache::blocks_for(graph_bytes));
        for (unsigned t = 0; t < threads_; ++t)
            readers_.push_back(
                std::make_unique<csr_reader>(file_, h_, std::size_t(256) << 10, &*cache_));
    }

    //! Runs from source (to target if given) and returns distances and counters.
    search_result run(std::uint32_t source, std::optional<std::uint32_t> target) {
        ensure_external_memory();
        ppq_options cfg;
        cfg.memory_bytes = queue_bytes_;
        cfg.num_threads = threads_;
        queue_type pq(later_key{}, cfg);
        search_result r;
        r.distance.assign(h_.vertices, unreached);
        dist_ = r.distance.data();
        dist_[source] = 0;
        expanded_.assign(h_.vertices, 0);
        if (opt_.parents) r.parent.assign(h_.vertices, no_parent);
        parent_ = opt_.parents ? r.parent.data() : nullptr;
        if (resident_) image_.emplace(file_, h_);
        frontiers_.resize(threads_);
        for (frontier& f : frontiers_) f.items.reset(new queue_item[frontier_cap_]);
        pq.push(make_item(heuristic_(source), source, no_parent));
        r.stats.queue_size = 1;
        tfp::time_forward_loop(
            pq, delta_limit{rule_, dist_, target},
            [&](const tfp::time_forward_bulk<queue_type>& bulk) {
                round(pq, bulk.items(), bulk.limit()->key, r.stats);
                if (opt_.on_round) opt_.on_round(r.stats);
            },
            bulk_cap_);
        finish(pq, r);
        return r;
    }

private:
    std::uint64_t load(std::uint32_t v) const {
        return __atomic_load_n(&dist_[v], __ATOMIC_RELAXED);
    }

    //! Lowers dist[v] to d if smaller; returns the old value if it did, else nothing.
    std::optional<std::uint64_t> lower(std::uint32_t v, std::uint64_t d) {
        std::uint64_t old = load(v);
        while (d < old)
            if (__atomic_compare_exchange_n(&dist_[v], &old, d, true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                return old;
        return std::nullopt;
    }

    //! Orders a phase by vertex for windows and for large phases, dropping stale items first
    //! and keying the rest by their distance (the heuristic is evaluated once per item); in RAM
    //! a small phase is cheaper unordered, stale items skipped when relaxed. Returns true if the
    //! keys are distances now; adds the items dropped to stale.
    bool prepare(std::vector<queue_item>& phase, std::uint64_t& stale) {
        if (resident_ && phase.size() < 16 * parallel_bulk) return false;
        std::size_t n = 0;  // what is left holds each vertex once: its items' keys are distinct
        for (const queue_item& x : phase) {
            const std::uint64_t d = x.key - heuristic_(vertex_of(x));
            if (d == load(vertex_of(x))) phase[n++] = {d, x.vertex};
        }
        stale += phase.size() - n;
        phase.resize(n);
        if (phase.size() >= 16 * parallel_bulk)
            tbb::parallel_sort(phase.begin(), phase.end(), by_vertex{});
        else  // a task per 500 items would cost more than it saves
            std::sort(phase.begin(), phase.end(), by_vertex{});
        return true;
    }

    //! One round, inside the loop's bulk-push phase: phases of relaxations, the first over the
    //! bulk, each next one over the frontiers the last one filled (items before limit).
    void round(queue_type& pq, std::vector<queue_item>& bulk, std::uint64_t limit,
               search_stats& s) {
        s.popped += bulk.size();
        s.queue_size -= bulk.size();
        std::vector<round_counts>& counts = counts_;
        std::fill(counts.begin(), counts.end(), round_counts{});
        std::uint64_t phases = 0;
        for (; !bulk.empty(); ++phases) {
            const bool by_distance = prepare(bulk, counts[0].stale);
            relax_phase(pq, bulk, by_distance, limit);
            bulk.clear();  // the next phase: the frontiers, at most bulk_cap_ items
            if (bulk.capacity() < bulk_cap_) bulk.reserve(bulk_cap_);
            for (frontier& f : frontiers_) {
                bulk.insert(bulk.end(), f.items.get(), f.items.get() + f.size);
                f.size = 0;
            }
        }
        account(counts, std::max<std::uint64_t>(1, phases), s);
    }

    //! Relaxes the phase's items (keyed by distance, else by priority).
    void relax_phase(queue_type& pq, const std::vector<queue_item>& phase, bool by_distance,
                     std::uint64_t limit) {
        std::vector<round_counts>& counts = counts_;
        std::exception_ptr error;
        std::mutex error_mutex;
        // A small phase is not worth waking the team (on a loaded machine an OpenMP barrier
        // costs milliseconds): its owner relaxes it alone.
        const unsigned team_size = phase.size() >= parallel_bulk ? threads_ : 1;
#pragma omp parallel num_threads(team_size) if (team_size > 1)
        {
            const unsigned t = unsigned(omp_get_thread_num()),
                           team = unsigned(omp_get_num_threads());
            try {
                const std::size_t b = phase.size() * t / team, e = phase.size() * (t + 1) / team;
                for (std::size_t i = b; i < e; ++i)
                    relax(pq, phase[i], by_distance, limit, t, counts[t]);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
            }
        }
        if (error) std::rethrow_exception(error);  // the loop closes the bulk-push phase
    }

    void relax(queue_type& pq, const queue_item& x, bool by_distance, std::uint64_t limit,
               unsigned t, round_counts& c) {
        const std::uint32_t v = vertex_of(x);
        const std::uint64_t d = by_distance ? x.key : x.key - heuristic_(v);
        if (d != load(v)) {  // a shorter distance is known: its item comes (or came) too
            ++c.stale;
            return;
        }
        const adjacency a = image_ ? image_->edges(v) : readers_[t]->edges(v);
        ++c.expanded;
        c.relaxations += a.size;
        if (expanded_[v]) ++c.reexpanded, c.wasted += a.size;  // the earlier expansion's edges
        expanded_[v] = 1;  // once per phase: no other thread writes this now
        // x settles v at d unless a later item lowers d: then that one overwrites this
        if (parent_) parent_[v] = parent_of(x);
        frontier& next = frontiers_[t];
        for (std::size_t k = 0; k < a.size; ++k) {
            const std::uint64_t nd = d + (a.weights && !unit_ ? a.weights[k] : 1);
            const std::uint32_t u = a.targets[k];
            if (lower(u, nd)) {
                ++c.improved;
                const std::uint64_t key = nd + heuristic_(u);
                if (key < limit && next.size < frontier_cap_) {
                    next.items[next.size++] = make_item(key, u, v);
                    continue;
                }
                ++c.queued;
                c.min_key = std::min(c.min_key, key);
                c.max_key = std::max(c.max_key, key);
                pq.bulk_push(make_item(key, u, v), t);
            }
        }
    }

    void account(const std::vector<round_counts>& counts, std::uint64_t phases, search_stats& s) {
        round_counts all;
        for (const round_counts& c : counts) {
            all.expanded += c.expanded, all.stale += c.stale;
            all.relaxations += c.relaxations, all.improved += c.improved, all.queued += c.queued;
            all.reexpanded += c.reexpanded, all.wasted += c.wasted;
            all.min_key = std::min(all.min_key, c.min_key);
            all.max_key = std::max(all.max_key, c.max_key);
        }
        ++s.rounds;
        s.stale += all.stale;
        s.expanded += all.expanded;
        s.max_bulk = std::max(s.max_bulk, all.expanded);
        s.queue_size += all.queued;  // pq.size() would wait for the phase's background merges
        s.relaxations += all.relaxations, s.improved += all.improved;
        s.reexpanded += all.reexpanded;
        s.log_delta = rule_.lmf();
        rule_.after_round({all.expanded, phases, all.queued, all.min_key, all.max_key,
                           all.relaxations, all.wasted});
    }

    void finish(queue_type& pq, search_result& r) {
        for (const std::uint64_t d : r.distance) r.stats.reached += d != unreached;
        for (const auto& rd : readers_) r.stats.bytes_read += rd->bytes_read();
        if (image_) r.stats.bytes_read += image_->bytes_read();
        r.stats.queue_size = pq.size();
        const ppq_stats q = pq.stats();
        r.stats.queue_peak_bytes = q.peak_memory_bytes;
        r.stats.queue_bytes_io = q.bytes_read + q.bytes_written;
    }

    posix_file file_;
    graph_header h_;
    search_options opt_;
    Heuristic heuristic_;
    bool unit_;
    unsigned threads_;
    delta_rule rule_;
    std::vector<round_counts> counts_;  //!< per thread, reused every round
    std::uint64_t bulk_cap_ = 0, queue_bytes_ = 0;
    std::size_t frontier_cap_ = 0;     //!< items per thread's frontier
    std::vector<frontier> frontiers_;  //!< per thread: the round's next phase
    bool resident_ = false;            //!< the edges are read into image_
    std::optional<csr_image> image_;
    std::optional<block_cache> cache_;  //!< windows' refills, before the readers that use it
    std::vector<std::unique_ptr<csr_reader>> readers_;
    std::uint64_t* dist_ = nullptr;
    std::uint32_t* parent_ = nullptr;     //!< null without parents
    std::vector<std::uint8_t> expanded_;  //!< per vertex: relaxed once already
};

}  // namespace emflow::pipelines::graph::detail
