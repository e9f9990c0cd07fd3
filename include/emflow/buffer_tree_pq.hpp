// SPDX-License-Identifier: BSL-1.0
// emflow/buffer_tree_pq.hpp: the buffer-tree priority queue (Arge; Hutchinson et al., sec. 2.2
// and 3.3), the classic external priority queue that the PPQ paper cites as its predecessor.
//
// The smallest items (in pop order) live in an in-memory heap, the rest in a buffer tree that
// only sorts. A bound separates them: a push before the bound goes to the heap, any other into
// the tree's root buffer. When the heap runs dry, the buffers on the path to the leftmost leaf
// node are emptied and that node's items (at least a, at most b leaves) move to the heap, again
// until the heap is half full; the next splitter on the path becomes the bound. A heap
// grown past its quarter of the budget by pushes before the bound gives its larger half back
// to the tree (the bound moves down to the half's least item).
//
// It does NOT support changing the priority of (or deleting) an item already in the queue: a
// changed item must be pushed again and the stale copy ignored by the caller.
//
// Order as std::priority_queue: top() is the greatest item under Cmp (std::greater<> gives a
// min-queue). Memory: memory_bytes holds the heap (a quarter) and the tree's buffers (the rest);
// the tree's skeleton is outside (buffer_tree.hpp). An exception from the comparator or the
// disk leaves the queue failed: every later call throws std::logic_error.
//
//   emflow::buffer_tree_priority_queue<std::uint64_t, std::greater<>> pq;   // min-queue
//   pq.push(3); pq.push(1);  pq.top() == 1;  pq.bulk_pop(out, 1000);
#pragma once

#include <emflow/buffer_tree.hpp>
#include <emflow/detail/buffer_tree/params.hpp>
#include <emflow/detail/buffer_tree/records.hpp>
#include <emflow/detail/buffer_tree/tree.hpp>
#include <emflow/external_memory.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow {

//! Sizes of a buffer-tree priority queue; 0 picks the paper's tuned value.
struct buffer_tree_pq_options {
    std::size_t memory_bytes = std::size_t(64) << 20;  //!< the heap and the tree's buffers
    std::size_t fanout_max = 0;                        //!< b of the tree; 0: m/8
    std::size_t fanout_min = 0;                        //!< a of the tree; 0: b/4
    std::size_t buffer_blocks = 0;  //!< a buffer with more blocks is emptied; 0: m/2
};

//! External priority queue of T on a buffer tree; top() is the greatest under Cmp.
template <class T, class Cmp = std::less<T>, std::size_t BlockBytes = std::size_t(64) << 10>
class buffer_tree_priority_queue {
    static_assert(detail::buffer_tree::storable_v<T>,
                  "buffer_tree_priority_queue: items are stored as bytes: they must be trivially "
                  "copy-constructible, trivially destructible and default-constructible");
    //! The tree's order: the pop order (greatest under Cmp first).
    struct pop_order {
        Cmp cmp;
        bool operator()(const T& a, const T& b) const { return cmp(b, a); }
    };
    using engine =
        detail::buffer_tree::tree<T, detail::buffer_tree::sort_only, pop_order, BlockBytes>;
    using elem = typename engine::elem;

public:
    using value_type = T;  //!< item type

    //! The least memory_bytes: the tree's 32 blocks and the heap's quarter beside them.
    static constexpr std::size_t minimum_memory() {
        return detail::buffer_tree::minimum_memory(BlockBytes) * 4 / 3 + BlockBytes;
    }

    //! An empty queue; throws std::invalid_argument for sizes it cannot work with.
    explicit buffer_tree_priority_queue(Cmp cmp = Cmp(), buffer_tree_pq_options opt = {})
        : cmp_(cmp), heap_capacity_(std::max<std::size_t>(1, opt.memory_bytes / 4 / sizeof(T))) {
        if (opt.memory_bytes < minimum_memory())
            throw std::invalid_argument("emflow: buffer tree priority queue memory of " +
                                        format_mib(opt.memory_bytes, false) +
                                        " is too small (at least " +
                                        format_mib(minimum_memory(), true) + ")");
        ensure_external_memory();
        const auto p = detail::buffer_tree::resolve_params(
            opt.memory_bytes - opt.memory_bytes / 4, BlockBytes, engine::request_block_items,
            opt.fanout_max, opt.fanout_min, opt.buffer_blocks);
        tree_ = std::make_unique<engine>(pop_order{cmp}, p, nullptr);
    }
    buffer_tree_priority_queue(const buffer_tree_priority_queue&) = delete;
    buffer_tree_priority_queue& operator=(const buffer_tree_priority_queue&) = delete;

    //! Adds x.
    void push(const T& x) {
        guarded([&] {
            if (!bounded_ || cmp_(bound_, x)) {  // before the bound in pop order
                heap_.push_back(x);
                std::push_heap(heap_.begin(), heap_.end(), cmp_);
                if (heap_.size() > heap_capacity_) spill();
            } else {
                tree_->add({x});
                ++tree_items_;
            }
        });
    }
    //! The greatest item under Cmp; the queue must not be empty (std::logic_error otherwise).
    const T& top() {
        guarded([&] { refill(); });
        if (heap_.empty()) throw std::logic_error("emflow: top() of an empty priority queue");
        return heap_.front();
    }
    //! Removes top().
    void pop() {
        top();
        guarded([&] {
            std::pop_heap(heap_.begin(), heap_.end(), cmp_);
            heap_.pop_back();
        });
    }
    //! Replaces out with the next k items in pop order (fewer if the queue holds fewer).
    void bulk_pop(std::vector<T>& out, std::size_t k) {
        out.clear();
        while (out.size() < k && !empty()) {
            out.push_back(top());
            pop();
        }
    }
    //! Items in the queue.
    std::uint64_t size() const { return heap_.size() + tree_items_; }
    //! True if the queue holds no item.
    bool empty() const { return size() == 0; }

    //! The tree's work counters.
    buffer_tree_stats stats() const {
        const auto& a = tree_->io();
        return {a.blocks_read, a.blocks_written, a.block_pushes, tree_->height()};
    }

private:
    //! An empty heap takes leftmost leaf nodes of the tree until it is half full (file comment):
    //! one leaf node (b leaves of 3/4 of the budget) is less than half of its quarter, and each
    //! refill empties the buffers on the leftmost path, so fewer, larger refills move less.
    void refill() {
        if (!heap_.empty() || tree_items_ == 0) return;
        std::vector<elem> items;
        while ((heap_.empty() || heap_.size() < heap_capacity_ / 2) && tree_items_ > 0) {
            bounded_ = tree_->take_front(items, bound_);
            heap_.reserve(heap_.size() + items.size());
            for (const auto& e : items) heap_.push_back(e.key);
            tree_items_ -= items.size();
            items.clear();
        }
        std::make_heap(heap_.begin(), heap_.end(), cmp_);
    }

    //! Gives the later half of an overfull heap to the tree; the bound moves to its first item.
    //! A heap of one item repeated cannot be halved: its capacity doubles instead.
    void spill() {
        auto mid = heap_.begin() + heap_.size() / 2;
        std::nth_element(heap_.begin(), mid, heap_.end(), pop_order{cmp_});
        const T pivot = *mid;
        auto later =
            std::partition(heap_.begin(), heap_.end(), [&](const T& x) { return cmp_(pivot, x); });
        if (later == heap_.begin()) {
            heap_capacity_ *= 2;
        } else {
            for (auto it = later; it != heap_.end(); ++it) tree_->add({*it});
            tree_items_ += std::uint64_t(heap_.end() - later);
            heap_.erase(later, heap_.end());
            bound_ = pivot;
            bounded_ = true;
        }
        std::make_heap(heap_.begin(), heap_.end(), cmp_);
    }

    template <class F>
    void guarded(F&& f) {
        if (failed_)
            throw std::logic_error("emflow: buffer tree priority queue used after a failure");
        try {
            f();
        } catch (...) {
            failed_ = true;
            throw;
        }
    }

    Cmp cmp_;
    std::size_t heap_capacity_;
    std::vector<T> heap_;  // a max-heap under Cmp: the items before the bound
    std::unique_ptr<engine> tree_;
    std::uint64_t tree_items_ = 0;
    T bound_{};
    bool bounded_ = false;  // false: every item before the bound (the tree is empty)
    bool failed_ = false;
};

}  // namespace emflow
