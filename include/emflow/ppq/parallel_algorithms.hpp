// emflow/ppq/parallel_algorithms.hpp: parallel sort and parallel multiway merge on a oneTBB
// arena of the queue's num_threads threads.
//
// The multiway merge follows the parallel mode of libstdc++ (Singler et al.): the output is cut
// into equal parts by multisequence selection (libstdc++'s __gnu_parallel::multiseq_partition),
// and each part is merged independently by libstdc++'s sequential loser-tree multiway merge. oneTBB
// instead of OpenMP runs the parts, because it composes: bulk_push may flush from inside a user's
// OpenMP thread or oneTBB task (OpenMP would run a nested merge on one thread), and its idle
// workers do not spin on a busy 2-core machine. Exceptions (a throwing comparator) propagate from
// the tasks to the caller.
#pragma once

#include <parallel/multiseq_selection.h>
#include <parallel/multiway_merge.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace emflow::ppq_detail {

//! "a pops before b" for a queue whose top is the greatest item under Compare.
template <class Compare>
struct pop_order {
    Compare cmp;
    template <class T>
    bool operator()(const T& a, const T& b) const { return cmp(b, a); }
};

//! The threads that sort and merge: a oneTBB arena of num_threads threads.
class workers {
public:
    explicit workers(unsigned threads) : threads_(threads), arena_(int(threads)) {}
    //! Number of threads.
    unsigned threads() const { return threads_; }
    //! Runs f inside the arena (its parallel algorithms then use at most threads() threads).
    template <class F>
    void run(F&& f) {
        if (threads_ <= 1)
            f();
        else
            arena_.execute(f);
    }

private:
    unsigned threads_;
    tbb::task_arena arena_;
};

//! Sorts [begin, end) by order.
template <class T, class Order>
void parallel_sort(T* begin, T* end, const Order& order, workers& w) {
    if (std::is_sorted(begin, end, order)) return;  // ascending input: nothing to do
    if (w.threads() <= 1 || end - begin < 65536)
        std::sort(begin, end, order);
    else
        w.run([&] { tbb::parallel_sort(begin, end, order); });
}

//! A sorted range of items [first, second).
template <class T>
using sequence = std::pair<T*, T*>;

namespace merge_detail {

//! Merges the sequences into target sequentially (libstdc++'s loser tree); advances them.
template <class T, class Order>
void merge_sequential(std::vector<sequence<T>>& seqs, T* target, std::size_t length,
                      const Order& order) {
    // libstdc++ reads *seqs[0].second as a sentinel value even when it uses none, so the first
    // sequence is an empty one over a valid dummy item.
    T dummy{};
    seqs.insert(seqs.begin(), sequence<T>(&dummy, &dummy));
    __gnu_parallel::multiway_merge(seqs.begin(), seqs.end(), target, std::ptrdiff_t(length), order,
                                   __gnu_parallel::sequential_tag());
    seqs.erase(seqs.begin());
}

}  // namespace merge_detail

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
        merge_detail::merge_sequential(ne, target, length, order);
    } else {
        // cut[t][i]: where part t begins in sequence i (cut[parts]: where the merge ends)
        std::vector<std::vector<T*>> cut(parts + 1, std::vector<T*>(k));
        for (std::size_t i = 0; i < k; ++i) cut[0][i] = ne[i].first;
        w.run([&] {
            tbb::parallel_for(std::size_t(1), parts + 1, [&](std::size_t t) {
                __gnu_parallel::multiseq_partition(ne.begin(), ne.end(),
                                                   std::ptrdiff_t(length * t / parts),
                                                   cut[t].begin(), order);
            });
            tbb::parallel_for(std::size_t(0), parts, [&](std::size_t t) {
                std::vector<sequence<T>> part(k);
                std::size_t offset = 0, n = 0;
                for (std::size_t i = 0; i < k; ++i) {
                    part[i] = {cut[t][i], cut[t + 1][i]};
                    offset += std::size_t(cut[t][i] - ne[i].first);
                    n += std::size_t(cut[t + 1][i] - cut[t][i]);
                }
                merge_detail::merge_sequential(part, target + offset, n, order);
            });
        });
        for (std::size_t i = 0; i < k; ++i) ne[i].first = cut[parts][i];
    }
    for (std::size_t j = 0; j < k; ++j) seqs[where[j]].first = ne[j].first;
    return length;
}

}  // namespace emflow::ppq_detail
