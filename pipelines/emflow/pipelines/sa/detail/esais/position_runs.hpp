// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/position_runs.hpp: tuples a pass hands over in its own order,
// read back in position order: the L-pass's chain ends, joined by position with the S-parts'
// windows of a text scan into the S-pass's ranked seeds, and the S-pass's named S* suffixes, which
// become the reduced text; within a pass, each bucket's chains waiting for their continuations. A
// full buffer is sorted (in parallel) and written as a run; the runs are merged once, by the next
// pass while it pushes its seeds, into the reduced text, or at the bucket's end. So the tuples are
// neither kept in a vector nor sorted by a graph of their own, and the seeds joined with their
// windows (28 bytes each, about a third of the text's positions) never go to disk.
//
//   position_runs<chain_end<Index>> ends(run_items);
//   ends.push(e) ...;                                       // in the pass
//   ends.each(merge_bytes, [](const chain_end<Index>& e) { ... });  // in position order
#pragma once

#include <emflow/nodes/sorted_runs.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>

namespace emflow::pipelines::sa::detail::esais {

//! Tuples with distinct pos fields, sorted by position in runs on disk, merged once.
template <class T>
using position_runs = sorted_runs<T, by_pos<T>>;

}  // namespace emflow::pipelines::sa::detail::esais
