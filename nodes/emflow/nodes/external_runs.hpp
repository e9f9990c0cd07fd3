// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/external_runs.hpp: the sorted runs of an external sort on disk, and their merge.
//
// Runs are the PPQ's external arrays (ppq/external_array.hpp): blocks on STXXL's block manager
// with the first item of every block kept in RAM. The merge is the PPQ's: the blocks are
// prefetched in the order their minima predict, within one read budget for all runs, and every
// round merges the items up to the smallest item not yet in RAM with the parallel multiway merge
// (ppq/parallel_algorithms.hpp), in the calling thread's oneTBB arena. So items need no
// sentinels (any strict weak ordering sorts), and the merge uses every thread of the arena.
//
// Memory of the merge (merge_plan): an output chunk, then one read block per run and the rest
// for prefetching. If that does not fit, the smallest runs are merged into one first, as few as
// needed and in as few passes as the budget allows, each pass with a writer of two blocks.
//
//   external_runs<T, Cmp> runs(cmp);  runs.add(sorted, n) ...;  runs.start_merge(bytes, threads);
//   while (std::size_t k = runs.merge(out, cap)) use(out, k);
#pragma once

#include <emflow/algorithm/external_arrays.hpp>
#include <emflow/external_memory.hpp>

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

namespace emflow {

//! Sorted runs on disk and their k-way merge; Order(a, b): a comes first.
template <class T, class Order>
class external_runs {
    // Items go to disk as bytes, as in STXXL's containers.
    static_assert(std::is_trivially_destructible_v<T> && std::is_copy_constructible_v<T>,
                  "external_runs stores items as bytes");
    using array_type = algorithm::external_array<T>;
    using array_ptr = std::unique_ptr<array_type>;

public:
    //! The size of a block on disk: a multiple of 4 KiB and of sizeof(T), about 256 KiB.
    static std::size_t block_bytes() {
        const std::size_t unit = std::lcm<std::size_t>(sizeof(T), algorithm::disk_unit);
        return std::max<std::size_t>(1, (std::size_t(256) << 10) / unit) * unit;
    }
    //! Blocks of the writer that forms runs (two halves: one fills while one is written).
    static constexpr std::size_t run_write_blocks = 4;
    //! RAM of the writer that forms runs.
    static std::size_t writer_bytes() { return run_write_blocks * block_bytes(); }
    //! Least RAM of a merge: an output chunk and, for merging runs in several passes, two read
    //! blocks, a spare one and a writer of two blocks.
    static std::size_t merge_minimum() { return 7 * block_bytes(); }
    //! Blocks per run a merge may prefetch beyond one pass's: with one, the merge waited for
    //! each run's next block in turn (bench/memory/README.md, e9644bc).
    static constexpr std::size_t prefetch_blocks_per_run = 8;

    //! No runs yet, items ordered by order; configures external memory if it is not yet.
    explicit external_runs(Order order) : order_(order) {
        ensure_external_memory();
        run_cfg_.block_bytes = merge_cfg_.block_bytes = block_bytes();
        run_cfg_.block_items = merge_cfg_.block_items = block_bytes() / sizeof(T);
        run_cfg_.write_blocks = run_write_blocks;
        merge_cfg_.write_blocks = 2;
        run_cfg_.read_blocks = merge_cfg_.read_blocks = 1;  // the merge sets one budget for all
    }
    ~external_runs() { clear(); }
    external_runs(const external_runs&) = delete;
    external_runs& operator=(const external_runs&) = delete;

    //! Writes the sorted items [first, first + n) as a new run (one thread at a time).
    void add(const T* first, std::size_t n) {
        if (n == 0) return;
        algorithm::external_writer<T> w(run_cfg_, 0, next_disk_);
        while (n > 0) {
            std::size_t room;
            T* dst = w.space(room);
            const std::size_t k = std::min(room, n);
            std::copy(first, first + k, dst);
            w.commit(k);
            first += k;
            n -= k;
        }
        runs_.push_back(w.finish());
    }
    //! Number of runs not yet merged.
    std::size_t count() const { return runs_.size(); }
    //! RAM a merge of every run in one pass needs: a block per run, one to read ahead, a spare
    //! one, and an output chunk of at most max_out_bytes (an eighth of the whole).
    std::size_t one_pass_bytes() const {
        const std::size_t reads = (runs_.size() + 2) * block_bytes();
        return std::min(reads + reads / 7, reads + max_out_bytes);
    }
    //! RAM beyond one_pass_bytes() for prefetching prefetch_blocks_per_run blocks per run.
    std::size_t prefetch_bytes() const {
        return prefetch_blocks_per_run * runs_.size() * block_bytes();
    }

    //! Prepares the merge within mem_bytes (at least merge_minimum()), merging the smallest runs
    //! first if one pass does not fit; threads: of the parallel merge (1: sequential).
    void start_merge(std::size_t mem_bytes, unsigned threads) {
        mem_bytes = std::max(mem_bytes, merge_minimum());
        workers_ = std::make_unique<algorithm::workers>(
            algorithm::workers::in_caller_arena(std::max(1u, threads)));
        // Earlier passes: a writer of two blocks and a spare block beside the runs' blocks.
        const std::size_t blocks = mem_bytes / block_bytes();
        out_items_ = std::max<std::size_t>(1, std::min(mem_bytes / 8, max_out_bytes) / sizeof(T));
        // The last pass: the output chunk, a spare block, and at least a block per run and one
        // to read ahead.
        const std::size_t read_blocks = (mem_bytes - out_items_ * sizeof(T)) / block_bytes() - 1;
        while (runs_.size() + 1 > read_blocks)
            merge_smallest(std::min(blocks - 3, runs_.size() + 2 - read_blocks), blocks - 3);
        merging_ =
            std::make_unique<algorithm::external_arrays<T, Order>>(merge_cfg_, order_, stats_);
        merging_->set_read_budget(read_blocks);
        add_all(*merging_, runs_.begin(), runs_.end());
        runs_.clear();
    }
    //! Items per merge() call that the budget allows.
    std::size_t chunk_items() const { return out_items_; }
    //! Merges the next items into out (capacity at least chunk_items()); 0 at the end.
    std::size_t merge(T* out, std::size_t capacity) {
        std::size_t n = 0;
        while (n == 0 && !merging_->empty())
            n = merging_->merge_round(out, std::min(capacity, out_items_), *workers_);
        return n;
    }
    //! Frees the merge's buffers and every run's disk blocks.
    void clear() noexcept {
        merging_.reset();
        workers_.reset();
        algorithm::block_pool none;  // unmerged runs hold no read buffers
        for (auto& r : runs_) r->release(none);
        runs_.clear();
    }

private:
    //! The largest output chunk: enough for the parallel merge to pay off.
    static constexpr std::size_t max_out_bytes = std::size_t(4) << 20;

    //! Moves the runs [first, last) into arrays, then plans their prefetching once (planned
    //! after each one, the first run's hints would take the whole budget and be dropped again).
    template <class It>
    static void add_all(algorithm::external_arrays<T, Order>& arrays, It first, It last) {
        arrays.set_prefetch(false);
        for (; first != last; ++first) arrays.add(std::move(*first));
        arrays.set_prefetch(true);
    }

    //! Merges the g smallest runs into one, reading ahead within read_blocks.
    void merge_smallest(std::size_t g, std::size_t read_blocks) {
        std::sort(runs_.begin(), runs_.end(), [](const array_ptr& a, const array_ptr& b) {
            return a->remaining() < b->remaining();
        });
        algorithm::external_arrays<T, Order> group(merge_cfg_, order_, stats_);
        group.set_read_budget(read_blocks);
        add_all(group, runs_.begin(), runs_.begin() + std::ptrdiff_t(g));
        runs_.erase(runs_.begin(), runs_.begin() + std::ptrdiff_t(g));
        algorithm::external_writer<T> out(merge_cfg_, 0, next_disk_);
        while (!group.empty()) {
            std::size_t room;
            T* dst = out.space(room);
            out.commit(group.merge_round(dst, room, *workers_));
        }
        runs_.push_back(out.finish());
    }

    Order order_;
    ppq_layout run_cfg_, merge_cfg_;  // referenced by writers and arrays
    ppq_stats stats_;
    std::vector<array_ptr> runs_;
    std::unique_ptr<algorithm::external_arrays<T, Order>> merging_;
    std::unique_ptr<algorithm::workers> workers_;
    std::size_t out_items_ = 0;
    unsigned next_disk_ = 0;
};

}  // namespace emflow
