// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/diamond/diamond.hpp: the Diamond flow graph of Figure 6 (Beckmann, Dementiev,
// Singler, IPDPS 2009), in its traditional variant (no async nodes, runs formed inline) and its
// parallel variant (async nodes where the paper puts them). Both give identical output.
//
//   0 file (pairs) -> 1 checksum -> 2 split ("the stream is doubled": pulled on, and pushed
//   side-ways to 9) -> [3] -> 4 sort by second asc -> 5 checksum -> [6] -> 7 sort by first
//   -> [8] -> 15;   9 async push -> 10 sort by second desc (push-fed) -> 11 checksum -> [12]
//   -> 13 sort by first -> [14] -> 15;   15 zip into pairs of pairs -> 16 checksum -> 17 file.
// Nodes 3, 6, 9 and 12 are the sorters' async run formation (Figure 5), 8 and 14 async pulls
// after the merges. "Sort by first" breaks ties by the second component, so that the output is
// fully determined.
// One memory budget for the whole graph: the runtime splits it by phase (emflow/memory_budget.hpp):
// runs of 4 and 10; merges of 4 and 10 with the runs of 7 and 13; merges of 7 and 13.
#pragma once

#include <emflow/flow.hpp>

#include <stxxl/vector>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace emflow::pipelines::diamond {

//! An input element of the Diamond graph.
using diamond_pair = std::pair<std::uint64_t, std::uint64_t>;
//! An output element: the two paths rejoined.
using diamond_quad = std::pair<diamond_pair, diamond_pair>;
//! The external vectors the graph reads and writes. The graph streams them, so their page
//! cache is one page of two blocks (4 MiB) instead of STXXL's default 64 MiB, which a vector of
//! pairs touches (and keeps resident) at construction.
using diamond_input = stxxl::VECTOR_GENERATOR<diamond_pair, 2, 1>::result;
using diamond_output = stxxl::VECTOR_GENERATOR<diamond_quad, 2, 1>::result;  //!< see diamond_input

//! Traditional (sequential) or parallel pipelining.
enum class diamond_variant {
    traditional,  //!< no asynchronous nodes: one segment, as in STXXL's pipelining
    parallel      //!< asynchronous nodes and run formation: the paper's parallel pipelining
};

//! Budget and tuning of a Diamond run.
struct diamond_options {
    std::size_t memory_bytes = std::size_t(1) << 30;  //!< the budget of the whole graph
    int threads = 0;                                  //!< 0: the shared flow arena
    bool parallel_sort = true;                        //!< sort each run in parallel
    //! 0: the sorters' memory is assigned from memory_bytes. Otherwise every sorter's own budget
    //! and no graph budget (a hand-made split, for comparison).
    std::size_t sorter_bytes = 0;
    progress* report = nullptr;       //!< per-phase progress; null: none
    memory_report* memory = nullptr;  //!< receives the memory assignment; null: none
};

//! The checksums taken by nodes 1, 5, 11 and 16.
struct diamond_checksums {
    checksum input;      //!< node 1
    checksum asc_path;   //!< node 5
    checksum desc_path;  //!< node 11
    checksum output;     //!< node 16
};

namespace detail {

//! Node 4: by second component ascending.
struct by_second_asc {
    bool operator()(const diamond_pair& a, const diamond_pair& b) const {
        return a.second < b.second;
    }
};

//! Node 10: by second component descending.
struct by_second_desc {
    bool operator()(const diamond_pair& a, const diamond_pair& b) const {
        return a.second > b.second;
    }
};

//! Nodes 7 and 13: by first component, ties by second (so that the output is determined).
struct by_first {
    bool operator()(const diamond_pair& a, const diamond_pair& b) const { return a < b; }
};

}  // namespace detail

//! Runs the Diamond graph over in, replacing out; returns the four checksums.
inline diamond_checksums run_diamond(const diamond_input& in, diamond_output& out,
                                     diamond_variant variant, const diamond_options& cfg = {}) {
    using namespace detail;
    const bool parallel = variant == diamond_variant::parallel;
    const sort_options opt{parallel, cfg.parallel_sort};
    const std::size_t mem = cfg.sorter_bytes;  // 0: assigned
    const run_options run{mem ? 0 : cfg.memory_bytes, cfg.threads, cfg.report, cfg.memory};
    diamond_checksums sums;

    sorter_node<diamond_pair, by_second_desc> node10(by_second_desc{}, mem, opt);
    auto node0 = streamify(in);
    auto node1 = tap_checksum(node0, sums.input);
    if (parallel) {
        auto node9 = async_push(node10);
        auto node2 = split(node1, node9);
        auto path_a = sort(sort(node2, by_second_asc{}, mem, opt) | tap_checksum(sums.asc_path),
                           by_first{}, mem, opt) |
                      async_pull();
        auto path_b =
            sort(node10 | tap_checksum(sums.desc_path), by_first{}, mem, opt) | async_pull();
        materialize(zip(path_a, path_b) | tap_checksum(sums.output), out, run);
    } else {
        auto node2 = split(node1, node10);
        auto path_a = sort(sort(node2, by_second_asc{}, mem, opt) | tap_checksum(sums.asc_path),
                           by_first{}, mem, opt);
        auto path_b = sort(node10 | tap_checksum(sums.desc_path), by_first{}, mem, opt);
        materialize(zip(path_a, path_b) | tap_checksum(sums.output), out, run);
    }
    return sums;
}

}  // namespace emflow::pipelines::diamond
