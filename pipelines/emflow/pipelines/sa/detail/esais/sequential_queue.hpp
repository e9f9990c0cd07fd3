// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/sequential_queue.hpp: STXXL's sequential priority_queue behind
// the bulk interface that eSAIS's passes use, so that the same pipeline runs on it and the gain of
// the bulk-parallel queue is measured side by side (as the original eSAIS runs, one item at a
// time on one core). Its internal memory is a compile-time parameter of STXXL's generator; the
// read and write pools come from the budget.
#pragma once

#include <emflow/pipelines/sa/detail/esais/tuples.hpp>

#include <stxxl/priority_queue>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! Prints an item (STXXL's priority_queue logs its items in verbose builds).
template <class Index, bool Named>
std::ostream& operator<<(std::ostream& os, const item<Index, Named>& x) {
    return os << "(" << unsigned(x.w.ch[0]) << ", " << std::uint64_t(x.rank) << ", "
              << std::uint64_t(x.pos) << ")";
}

//! STXXL's priority_queue over T in Order's pop order (Order: a pops after b; min_value(): an
//! item that pops after every other).
template <class T, class Order>
class sequential_queue {
    //! STXXL's generator: internal memory and capacity (in items, rounded to 1024).
    static constexpr std::size_t internal_bytes = std::size_t(128) << 20;
    static constexpr std::uint64_t max_items = std::uint64_t(1) << 32;
    using queue_type = typename stxxl::PRIORITY_QUEUE_GENERATOR<T, Order, internal_bytes,
                                                                max_items / 1024>::result;

public:
    using value_type = T;  //!< item type

    //! An empty queue with read and write pools of pool_bytes each.
    explicit sequential_queue(std::size_t pool_bytes)
        : q_(std::make_unique<queue_type>(pool_bytes, pool_bytes)) {}

    //! True if there are no items.
    bool empty() const { return q_->empty(); }
    //! The next item.
    const T& top() const { return q_->top(); }
    //! Replaces out by the next items (at most max) before limit; true if none is left.
    bool bulk_pop_limit(std::vector<T>& out, const T& limit, std::size_t max) {
        out.clear();
        while (out.size() < max && !q_->empty() && order_(limit, q_->top())) {
            out.push_back(q_->top());
            q_->pop();
        }
        return q_->empty() || !order_(limit, q_->top());
    }
    //! (nothing to prepare)
    void bulk_push_begin(std::size_t) {}
    //! Inserts x.
    void bulk_push(const T& x, unsigned) { q_->push(x); }
    //! (nothing to finish)
    void bulk_push_end() {}

private:
    Order order_;
    std::unique_ptr<queue_type> q_;  // large: off the stack
};

}  // namespace emflow::pipelines::sa::detail::esais
