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

#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/nodes/external_runs.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! Tuples with distinct pos fields, sorted by position in runs on disk, merged once.
template <class T>
class position_runs {
public:
    //! Runs of run_items tuples (at least one).
    explicit position_runs(std::size_t run_items)
        : runs_(by_pos<T>{}), run_items_(std::max<std::size_t>(1, run_items)) {}

    //! Takes x; writes a run when the buffer is full.
    void push(const T& x) {
        if (buffer_.capacity() == 0) buffer_.reserve(run_items_);
        buffer_.push_back(x);
        if (buffer_.size() == run_items_) write_run();
    }
    //! The number of tuples taken.
    std::uint64_t size() const { return written_ + buffer_.size(); }
    //! Calls f(x) for every tuple taken, in position order, merging the runs within
    //! merge_bytes; then holds none (and takes tuples again).
    template <class F>
    void each(std::size_t merge_bytes, F f) {
        write_run();
        std::vector<T>().swap(buffer_);
        runs_.start_merge(merge_bytes, threads());
        std::vector<T> out(runs_.chunk_items());
        while (const std::size_t k = runs_.merge(out.data(), out.size()))
            for (std::size_t i = 0; i < k; ++i) f(out[i]);
        runs_.clear();
        written_ = 0;
    }

private:
    static unsigned threads() { return unsigned(tbb::this_task_arena::max_concurrency()); }
    void write_run() {
        if (buffer_.empty()) return;
        algorithm::parallel_block_quicksort(buffer_.data(), buffer_.data() + buffer_.size(),
                                            by_pos<T>{}, threads());
        runs_.add(buffer_.data(), buffer_.size());
        written_ += buffer_.size();
        buffer_.clear();
    }

    external_runs<T, by_pos<T>> runs_;
    std::size_t run_items_;
    std::vector<T> buffer_;      // the run being filled
    std::uint64_t written_ = 0;  // tuples in runs
};

}  // namespace emflow::pipelines::sa::detail::esais
