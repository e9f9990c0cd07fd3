// emflow/ppq/parallel_algorithms.hpp: parallel sort and multiway merge (libstdc++ parallel mode)
// with a given number of threads, and exception transport out of OpenMP regions.
//
// An exception must not leave an OpenMP parallel region (that terminates the process). So the
// comparator used inside parallel regions is wrapped: the first exception is stored, and from
// then on every comparison answers false, which ends every loop of the sort and merge code
// quickly and safely; the stored exception is rethrown in the calling thread afterwards.
#pragma once

#include <parallel/algorithm>
#include <parallel/multiway_merge.h>

#include <omp.h>

#include <atomic>
#include <exception>
#include <mutex>
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

//! The first exception thrown by a comparator in a parallel region.
class failure_capture {
public:
    //! Stores the current exception unless one is stored already.
    void capture() noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true, std::memory_order_relaxed);
    }
    //! True once a comparison threw.
    bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
    //! Rethrows the stored exception, if any, and resets.
    void rethrow() {
        if (!failed()) return;
        std::exception_ptr e;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            std::swap(e, error_);
            failed_.store(false);
        }
        std::rethrow_exception(e);
    }

private:
    std::mutex mutex_;
    std::exception_ptr error_;
    std::atomic<bool> failed_{false};
};

//! A comparator that never throws: see the header comment.
template <class Order>
struct guarded_order {
    const Order* order;
    failure_capture* capture;
    template <class T>
    bool operator()(const T& a, const T& b) const noexcept {
        if (capture->failed()) return false;
        try {
            return (*order)(a, b);
        } catch (...) {
            capture->capture();
            return false;
        }
    }
};

//! Sorts [begin, end) by order with up to threads threads (in place for one thread).
template <class T, class Order>
void parallel_sort(T* begin, T* end, const Order& order, unsigned threads) {
    if (threads <= 1 || end - begin < 4096 || omp_in_parallel()) {
        std::sort(begin, end, order);  // exceptions propagate directly
        return;
    }
    failure_capture capture;
    guarded_order<Order> g{&order, &capture};
    __gnu_parallel::sort(begin, end, g, __gnu_parallel::multiway_mergesort_tag(threads));
    capture.rethrow();
}

//! A sorted range of items [first, second).
template <class T>
using sequence = std::pair<T*, T*>;

//! Merges up to length items of seqs into target with up to threads threads; advances the
//! sequences' begins past the merged items. Returns the number of items merged.
template <class T, class Order>
std::size_t multiway_merge(std::vector<sequence<T>>& seqs, T* target, std::size_t length,
                           const Order& order, unsigned threads) {
    // libstdc++ reads *seqs[0].second as a sentinel value even when it does not use
    // sentinels, so the first sequence is an empty one over a valid dummy item.
    static thread_local T dummy{};
    std::vector<sequence<T>> s;
    s.reserve(seqs.size() + 1);
    s.emplace_back(&dummy, &dummy);
    std::size_t total = 0;
    for (auto& q : seqs) {
        total += std::size_t(q.second - q.first);
        s.push_back(q);
    }
    length = std::min(length, total);
    if (length == 0) return 0;
    failure_capture capture;
    guarded_order<Order> g{&order, &capture};
    // Nested inside a parallel region (a bulk_push from an OpenMP thread) OpenMP gives one
    // thread, and libstdc++'s exact splitting mishandles one thread with a rank limit.
    if (threads <= 1 || length < 8192 || omp_in_parallel())
        __gnu_parallel::multiway_merge(s.begin(), s.end(), target, std::ptrdiff_t(length), g,
                                       __gnu_parallel::sequential_tag());
    else
        __gnu_parallel::multiway_merge(s.begin(), s.end(), target, std::ptrdiff_t(length), g,
                                       __gnu_parallel::parallel_tag(threads));
    capture.rethrow();
    for (std::size_t i = 0; i < seqs.size(); ++i) seqs[i] = s[i + 1];
    return length;
}

}  // namespace emflow::ppq_detail
