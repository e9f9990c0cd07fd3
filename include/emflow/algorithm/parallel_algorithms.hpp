// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/parallel_algorithms.hpp: parallel sort (block quicksort,
// ppq/block_quicksort.hpp) and parallel multiway merge with the queue's num_threads threads.
//
// The multiway merge follows the parallel mode of libstdc++ (Singler et al.): the output is cut
// into equal parts by multisequence selection (libstdc++'s __gnu_parallel::multiseq_partition),
// and each part is merged independently by ppq/sequential_merge.hpp.
// Which threads run the parts: see `workers`. Exceptions (a throwing comparator) reach the caller.
#pragma once

#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/algorithm/cooperative_section.hpp>
#include <emflow/algorithm/sequential_merge.hpp>

#include <parallel/multiseq_selection.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <omp.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

namespace emflow::algorithm {

//! "a pops before b" for a queue whose top is the greatest item under Compare.
template <class Compare>
struct pop_order {
    Compare cmp;  //!< the queue's comparator
    template <class T>
    //! Whether a pops before b: cmp(b, a).
    bool operator()(const T& a, const T& b) const {
        return cmp(b, a);
    }
};

//! The threads that sort and merge: num_threads OpenMP threads (so a caller that uses OpenMP
//! itself reuses the same thread team instead of competing with its spinning idle workers), or
//! a oneTBB arena of num_threads threads for a caller inside an OpenMP region (a bulk_push that
//! flushes), where OpenMP would give one thread. Workers made by in_caller_arena() run as
//! oneTBB tasks of the calling thread's arena instead: for queue work inside oneTBB tasks,
//! which must neither open an OpenMP team nor add threads to the busy cores.
class workers {
public:
    //! Workers of threads OpenMP threads, or of a oneTBB arena of that many threads inside an
    //! OpenMP region.
    explicit workers(unsigned threads) : threads_(threads), arena_(int(threads)) {}
    //! Workers that use the calling thread's oneTBB arena (see the class comment); if `shared`
    //! is given, their loops inside its turns are shared with the threads waiting for a turn.
    static workers in_caller_arena(unsigned threads, cooperative_section* shared = nullptr) {
        workers w(threads);
        w.in_caller_arena_ = true;
        w.shared_ = shared;
        return w;
    }
    //! Number of threads.
    unsigned threads() const { return threads_; }
    //! Calls f(0) .. f(n-1) in parallel; rethrows the first exception in the caller.
    template <class F>
    void for_each(std::size_t n, F&& f) {
        if (threads_ <= 1 || n <= 1) {
            for (std::size_t i = 0; i < n; ++i) f(i);
        } else if (in_caller_arena_ && shared_) {
            shared_->for_each(n, f, [&](auto&& claim) {
                tbb::parallel_for(std::size_t(0), std::min<std::size_t>(n, threads_),
                                  [&](std::size_t) { claim(); });
            });
        } else if (in_caller_arena_) {
            tbb::parallel_for(std::size_t(0), n, f);
        } else if (omp_in_parallel()) {
            arena_.execute([&] { tbb::parallel_for(std::size_t(0), n, f); });
        } else {
            std::exception_ptr error;
            std::mutex m;
            const int threads = int(std::min<std::size_t>(threads_, n));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
            for (std::size_t i = 0; i < n; ++i) {
                try {  // an exception must not leave an OpenMP region
                    f(i);
                } catch (...) {
                    std::lock_guard<std::mutex> lock(m);
                    if (!error) error = std::current_exception();
                }
            }
            if (error) std::rethrow_exception(error);
        }
    }
    //! Runs f inside the oneTBB arena.
    template <class F>
    void run_in_arena(F&& f) {
        if (in_caller_arena_)
            f();
        else
            arena_.execute(f);
    }

private:
    unsigned threads_;
    tbb::task_arena arena_;
    bool in_caller_arena_ = false;
    cooperative_section* shared_ = nullptr;
};

//! Sorts [begin, end) by order: block quicksort, with the threads of w for long ranges (it
//! beats std::sort and tbb::parallel_sort about 2x on random keys: bench/sort/).
template <class T, class Order>
void parallel_sort(T* begin, T* end, const Order& order, workers& w) {
    if (std::is_sorted(begin, end, order)) return;  // presorted input: nothing to do
    const auto reversed = [&](const T& a, const T& b) { return order(b, a); };
    if (std::is_sorted(begin, end, reversed)) {  // reverse-sorted: partitions would swap all
        std::reverse(begin, end);
        return;
    }
    if (w.threads() <= 1 || end - begin < 65536)
        block_quicksort(begin, end, order);
    else
        w.run_in_arena([&] { parallel_block_quicksort(begin, end, order, w.threads()); });
}

//! Merges the first min(length, total) items of seqs into target and advances the sequences'
//! begins past them; parts are merged in parallel. Returns the number of items merged.
template <class T, class Order>
std::size_t multiway_merge(std::vector<sequence<T>>& seqs, T* target, std::size_t length,
                           const Order& order, workers& w) {
    std::vector<sequence<T>> ne;  // non-empty sequences (multiseq_partition needs them)
    std::vector<std::size_t> where;
    std::size_t total = 0;
    for (std::size_t i = 0; i < seqs.size(); ++i)
        if (seqs[i].first != seqs[i].second) {
            ne.push_back(seqs[i]);
            where.push_back(i);
            total += std::size_t(seqs[i].second - seqs[i].first);
        }
    length = std::min(length, total);
    if (length == 0) return 0;
    const std::size_t k = ne.size();
    const std::size_t parts = w.threads() > 1 && k > 1 && length >= 32768 ? w.threads() : 1;
    if (parts == 1) {
        detail::merge_sequential(ne, target, length, order);
    } else {
        // cut[t][i]: where part t begins in sequence i (cut[parts]: where the merge ends)
        std::vector<std::vector<T*>> cut(parts + 1, std::vector<T*>(k));
        for (std::size_t i = 0; i < k; ++i) cut[0][i] = ne[i].first;
        w.for_each(parts, [&](std::size_t t) {
            __gnu_parallel::multiseq_partition(ne.begin(), ne.end(),
                                               std::ptrdiff_t(length * (t + 1) / parts),
                                               cut[t + 1].begin(), order);
        });
        w.for_each(parts, [&](std::size_t t) {
            std::vector<sequence<T>> part(k);
            std::size_t offset = 0, n = 0;
            for (std::size_t i = 0; i < k; ++i) {
                part[i] = {cut[t][i], cut[t + 1][i]};
                offset += std::size_t(cut[t][i] - ne[i].first);
                n += std::size_t(cut[t + 1][i] - cut[t][i]);
            }
            detail::merge_sequential(part, target + offset, n, order);
        });
        for (std::size_t i = 0; i < k; ++i) ne[i].first = cut[parts][i];
    }
    for (std::size_t j = 0; j < k; ++j) seqs[where[j]].first = ne[j].first;
    return length;
}

}  // namespace emflow::algorithm
