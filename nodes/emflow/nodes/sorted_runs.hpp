// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/sorted_runs.hpp: items taken one at a time and read back once in sorted order,
// outside a flow graph (what an stxxl::sorter does, on emflow's parallel block quicksort and
// the runs and multiway merge of the sort node): a full buffer is sorted in parallel and written
// as a run; the runs are merged once, while each() hands the items out. The caller holds the
// buffer (run_items items) and gives the merge its memory.
//
//   sorted_runs<edge, by_source> edges(run_items);
//   edges.push(e) ...;
//   edges.each(merge_bytes, [](const edge& e) { ... });   // in order
#pragma once

#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/nodes/external_runs.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow {

//! Items sorted by Order in runs on disk, merged once.
template <class T, class Order>
class sorted_runs {
public:
    //! Runs of run_items items (at least one), ordered by order.
    explicit sorted_runs(std::size_t run_items, Order order = Order())
        : order_(order), runs_(order), run_items_(std::max<std::size_t>(1, run_items)) {}

    //! Takes x; writes a run when the buffer is full.
    void push(const T& x) {
        if (buffer_.capacity() == 0) buffer_.reserve(run_items_);
        buffer_.push_back(x);
        if (buffer_.size() == run_items_) write_run();
    }
    //! The number of items taken.
    std::uint64_t size() const { return written_ + buffer_.size(); }
    //! Calls f(x) for every item taken, in order, merging the runs within merge_bytes (at
    //! least external_runs' merge_minimum()); then holds none (and takes items again).
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
        algorithm::parallel_block_quicksort(buffer_.data(), buffer_.data() + buffer_.size(), order_,
                                            threads());
        runs_.add(buffer_.data(), buffer_.size());
        written_ += buffer_.size();
        buffer_.clear();
    }

    Order order_;
    external_runs<T, Order> runs_;
    std::size_t run_items_;
    std::vector<T> buffer_;      // the run being filled
    std::uint64_t written_ = 0;  // items in runs
};

}  // namespace emflow
