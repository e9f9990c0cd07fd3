// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/push_transform.hpp: push-side scanning node: pushes f(x) into succ for every x.
//
//   auto worker = push_transform(pp, [](std::uint64_t seed) { return expensive(seed); });
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow {

//! Push node: f(x) pushed into succ.
template <class T, class Succ, class F>
class push_transform_node {
public:
    using value_type = T;  //!< element type

    //! f in front of succ.
    push_transform_node(Succ&& succ, F f) : succ_(std::forward<Succ>(succ)), f_(std::move(f)) {}

    //! Starts succ, allocates and declares the scratch.
    void start(run_context& ctx) {
        succ_.start(ctx);
        ctx.memory().declare_run_long("push_transform chunk",
                                      memory_demand::fixed(default_chunk * sizeof(value_t<Succ>)));
        scratch_.resize(default_chunk);
    }
    //! Pushes f(x).
    void push(const T& x) { succ_.push(f_(x)); }
    //! Pushes f of n elements as batches.
    void push_batch(const T* p, std::size_t n) {
        while (n > 0) {
            std::size_t k = std::min(n, scratch_.size());
            for (std::size_t i = 0; i < k; ++i) scratch_[i] = f_(p[i]);
            succ_.push_batch(scratch_.data(), k);
            p += k;
            n -= k;
        }
    }
    //! Stops succ.
    void push_stop() { succ_.push_stop(); }

private:
    stored_t<Succ> succ_;
    F f_;
    std::vector<value_t<Succ>> scratch_;
};

//! Push node with input type T pushing f(x) into succ.
template <class T, class Succ, class F>
auto push_transform(Succ&& succ, F f) {
    return push_transform_node<T, Succ, F>(std::forward<Succ>(succ), std::move(f));
}

}  // namespace emflow
