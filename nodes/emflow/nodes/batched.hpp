// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/batched.hpp: gives batch access to a node written element-wise only (empty(),
// operator*(), operator++() and a start(run_context&)), by copying chunks into a buffer.
//
//   auto b = batched(my_elementwise_node);
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace emflow {

//! Pull node with batches over an element-wise node.
template <class Src>
class batched_node
    : public buffered_pull<batched_node<Src>,
                           std::decay_t<decltype(*std::declval<std::decay_t<Src>&>())>> {
    using T = std::decay_t<decltype(*std::declval<std::decay_t<Src>&>())>;
    friend class buffered_pull<batched_node, T>;

public:
    //! Wraps src; chunk: batch capacity.
    batched_node(Src&& src, std::size_t chunk)
        : buffered_pull<batched_node, T>(chunk), src_(std::forward<Src>(src)) {}

    //! Starts src, declares the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        this->declare_buffer(ctx, "batched chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t n = 0;
        for (; n < cap && !src_.empty(); ++n, ++src_) out[n] = *src_;
        return n;
    }

    stored_t<Src> src_;
};

//! Batch access over the element-wise node src.
template <class Src>
auto batched(Src&& src, std::size_t chunk = default_chunk) {
    return batched_node<Src>(std::forward<Src>(src), chunk);
}

}  // namespace emflow
