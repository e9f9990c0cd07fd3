// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/search_options.hpp: what the searches (SSSP, BFS, A*) take and report,
// and the memory they need.
#pragma once

#include <emflow/pipelines/graph/format.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace emflow::pipelines::graph {

//! The distance of an unreached vertex.
inline constexpr std::uint64_t unreached = std::numeric_limits<std::uint64_t>::max();
//! In search_result::parent: the source's and an unreached vertex's parent.
inline constexpr std::uint32_t no_parent = std::numeric_limits<std::uint32_t>::max();
//! In a parent file (u64 per vertex): no parent.
inline constexpr std::uint64_t no_parent_u64 = std::numeric_limits<std::uint64_t>::max();

//! Counters of a search, also passed to the progress callback after every round.
struct search_stats {
    std::uint64_t rounds = 0;            //!< bulks popped
    std::uint64_t popped = 0;            //!< items popped
    std::uint64_t stale = 0;             //!< items skipped (a shorter distance was known)
    std::uint64_t expanded = 0;          //!< vertices whose out-edges were relaxed (with repeats)
    std::uint64_t relaxations = 0;       //!< edges relaxed
    std::uint64_t improved = 0;          //!< relaxations that lowered a distance (= pushes)
    std::uint64_t reexpanded = 0;        //!< expansions of a vertex expanded before (useless work)
    std::uint64_t max_bulk = 0;          //!< most vertices expanded in one round
    std::uint64_t reached = 0;           //!< vertices with a finite distance at the end
    std::uint64_t queue_size = 0;        //!< items in the queue (after the round)
    std::uint64_t bytes_read = 0;        //!< graph bytes read
    std::uint64_t queue_peak_bytes = 0;  //!< the queue's peak RAM
    std::uint64_t queue_bytes_io = 0;    //!< bytes the queue read and wrote on disk
    int log_delta = 0;                   //!< log2 Δ of the last round
    //! The share of expansions that repeated an earlier one: the useless work.
    double useless_share() const { return expanded ? double(reexpanded) / double(expanded) : 0.0; }
};

//! The thresholds of the adaptive Δ (PMOD's rule, detail/delta_rule.hpp). Since the light
//! phases (a round's relaxations before its limit stay in RAM) a wider Δ saves queue work for
//! every item it keeps in the round, so min_bulk and min_density are large (rounds of up to a
//! million items count as small and sparse) and the waste, max_useless, is what stops a merge
//! (kron graphs ran fastest with 30% of their expansions useless, uniform ones 16% slower at 25%).
struct adaptive_params {
    std::uint64_t min_bulk = 1 << 20;     //!< PMOD's Freq_global as 1 / (items per round wanted)
    std::uint64_t min_density = 1 << 20;  //!< PMOD's MinDensity: pushes per group wanted
    std::uint64_t max_pops = 4096;        //!< PMOD's MaxPops: a bulk this large may unmerge
    std::uint64_t min_groups = 4;         //!< PMOD's Min_queues: groups a round's pushes span
    double max_useless = 0.1;             //!< share of wasted relaxations tolerated
    std::uint64_t min_relaxed = 4096;     //!< relaxations before the waste is judged
    int max_lmf = 40;                     //!< Δ at most 2^max_lmf
    int max_merge_step = 1;               //!< lmf grows by at most this per round
    std::uint64_t window_rounds = 8;      //!< counters also restart after this many rounds
    //! A*'s max_useless (astar() uses it instead): its rounds cost more per vertex than
    //! SSSP's, and the larger bulks a wider Δ gives (sorted by vertex, relaxed by every thread)
    //! repaid their waste on every road query measured (bench/graph/README.md)
    double max_useless_astar = 0.3;
};

//! How a search runs.
struct search_options {
    //! The whole budget: vertex arrays, graph read windows, bulk and queue.
    std::uint64_t memory_bytes = std::uint64_t(1) << 30;
    //! Threads relaxing edges (and the queue's insertion heaps); 0: OpenMP's default.
    unsigned threads = 0;
    //! log2 Δ fixed to this value; negative: adaptive (PMOD's rule, from a start derived from
    //! the weights). BFS always uses 0.
    int log_delta = -1;
    //! The adaptive rule's thresholds (the defaults are measured: bench/graph/README.md).
    adaptive_params adaptive;
    //! Also compute search_result::parent (4 more bytes per vertex in the budget).
    bool parents = false;
    //! Called after every round with the counters so far (may be empty).
    std::function<void(const search_stats&)> on_round;
};

//! What a search returns.
struct search_result {
    //! Per vertex: its distance from the source (unreached if none). A*: exact for the target
    //! and every vertex on its shortest path; an upper bound elsewhere.
    std::vector<std::uint64_t> distance;
    //! With search_options::parents, per vertex: the tail of its last edge on a shortest path
    //! found, an edge (parent[v], v) with distance[v] = distance[parent[v]] + weight; no_parent
    //! for the source and unreached vertices (A*: valid where distance is exact). The parents
    //! form a tree: a vertex's parent was settled before it. Empty without parents.
    std::vector<std::uint32_t> parent;
    search_stats stats;  //!< the counters at the end
};

//! RAM a search of a graph with header h needs besides its queue: the distance array and an
//! expanded flag per vertex (and for A* its heuristic's table, with parents a parent), read windows
//! for threads threads, and a minimal bulk (with the frontiers of its phases) and queue.
inline std::uint64_t search_memory_needed(const graph_header& h, bool astar, unsigned threads,
                                          bool parents = false) {
    // A*: its heuristic's table, and while it is built without a stored scale the coordinates
    const std::uint64_t heuristic = astar ? (h.has_astar_scale() ? 4 : 20) : 0;
    const std::uint64_t vertex = (9 + heuristic + (parents ? 4 : 0)) * std::uint64_t(h.vertices);
    return vertex + std::uint64_t(threads) * (1 << 20) + (std::uint64_t(8) << 20);
}

}  // namespace emflow::pipelines::graph
