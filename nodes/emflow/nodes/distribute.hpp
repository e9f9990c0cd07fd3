// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/distribute.hpp: push node dealing its input round-robin, chunk elements at a time,
// to several push successors (Figure 7); collect() with the same chunk restores the order.
//
//   auto d = distribute(chunk, worker0, worker1, worker2);
// Liveness: every buffer on the worker paths (async push, push-pull) must divide chunk, so that
// each round publishes whole buffers ("buffer-wise round robin"); otherwise a partial buffer can
// hold back the path collect() waits for.
#pragma once

#include <emflow/node.hpp>

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>

namespace emflow {

namespace detail {

//! Calls f(std::get<i>(t)) for a run-time index i.
template <class Tuple, class F>
void visit_at(Tuple& t, std::size_t i, F&& f) {
    std::apply(
        [&](auto&... elems) {
            std::size_t j = 0;
            ((j++ == i ? (void)f(elems) : (void)0), ...);
        },
        t);
}

}  // namespace detail

//! Push node: chunk elements to the first successor, the next chunk to the second, ...
template <class... Succs>
class distribute_node {
public:
    using value_type = value_t<std::tuple_element_t<0, std::tuple<Succs...>>>;  //!< element type

    //! Deals chunk elements at a time to succs.
    distribute_node(std::size_t chunk, Succs&&... succs)
        : chunk_(chunk > 0 ? chunk : 1), succs_(std::forward<Succs>(succs)...) {}

    //! Starts every successor.
    void start(run_context& ctx) {
        std::apply([&](auto&... s) { (s.start(ctx), ...); }, succs_);
    }
    //! Pushes x to the current successor.
    void push(const value_type& x) { push_batch(&x, 1); }
    //! Pushes n elements, switching successors every chunk elements.
    void push_batch(const value_type* p, std::size_t n) {
        while (n > 0) {
            std::size_t k = std::min(n, chunk_ - sent_);
            detail::visit_at(succs_, current_, [&](auto& s) { s.push_batch(p, k); });
            p += k;
            n -= k;
            sent_ += k;
            if (sent_ == chunk_) {
                sent_ = 0;
                current_ = (current_ + 1) % sizeof...(Succs);
            }
        }
    }
    //! Stops every successor.
    void push_stop() {
        std::apply([](auto&... s) { (s.push_stop(), ...); }, succs_);
    }

private:
    std::size_t chunk_;
    std::tuple<stored_t<Succs>...> succs_;
    std::size_t current_ = 0, sent_ = 0;
};

//! Round-robin distribution to succs, chunk elements each.
template <class... Succs>
auto distribute(std::size_t chunk, Succs&&... succs) {
    return distribute_node<Succs...>(chunk, std::forward<Succs>(succs)...);
}

}  // namespace emflow
