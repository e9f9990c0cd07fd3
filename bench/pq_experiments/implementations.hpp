// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/implementations.hpp: one entry point per implementation under test.
#pragma once

#include "options.hpp"
#include "run_result.hpp"

namespace pq_bench {

//! emflow's bulk-parallel priority queue, through its bulk interfaces.
run_result run_ppq(const options& o);

//! STXXL's priority_queue (sequence heap; parallel multiway merges in Debian's build).
run_result run_stxxl_pq(const options& o);

//! STXXL's stream sorter (push-*-pop only): the baseline of the paper.
run_result run_stxxl_sorter(const options& o);

//! emflow's buffer-tree priority queue (Arge), one item at a time.
run_result run_buffer_tree_pq(const options& o);

}  // namespace pq_bench
