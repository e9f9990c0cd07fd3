// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/zip.hpp: joins two pull inputs element by element into std::pairs; ends with the
// shorter input. The rest of the longer input is then read and discarded, so that every node
// upstream of it finishes: a split there still pushes the whole stream into its side outputs
// and stops them (otherwise a side segment would wait for push_stop() forever).
//
//   auto pairs = zip(left, right);   // value_type std::pair<L, R>
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node: (a_i, b_i) pairs.
template <class A, class B>
class zip_node : public buffered_pull<zip_node<A, B>, std::pair<value_t<A>, value_t<B>>> {
    using T = std::pair<value_t<A>, value_t<B>>;
    friend class buffered_pull<zip_node, T>;

public:
    //! Joins a and b.
    zip_node(A&& a, B&& b) : a_(std::forward<A>(a)), b_(std::forward<B>(b)) {}

    //! Starts both inputs, declares the buffer.
    void start(run_context& ctx) {
        a_.start(ctx);
        b_.start(ctx);
        this->declare_buffer(ctx, "zip chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        if (a_.empty() || b_.empty()) {
            drain(a_);
            drain(b_);
            return 0;
        }
        std::size_t n = std::min({a_.batch_length(), b_.batch_length(), cap});
        auto ia = a_.batch_begin();
        auto ib = b_.batch_begin();
        for (std::size_t i = 0; i < n; ++i) out[i] = T(ia[i], ib[i]);
        a_ += n;
        b_ += n;
        return n;
    }

    template <class N>
    static void drain(N& n) {
        while (!n.empty()) n += n.batch_length();
    }

    stored_t<A> a_;
    stored_t<B> b_;
};

//! Pairs of the elements of a and b.
template <class A, class B, std::enable_if_t<is_pull_node_v<A> && is_pull_node_v<B>, int> = 0>
auto zip(A&& a, B&& b) {
    return zip_node<A, B>(std::forward<A>(a), std::forward<B>(b));
}

}  // namespace emflow
