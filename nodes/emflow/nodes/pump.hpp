// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/pump.hpp: an active node that pulls src and pushes everything into a push node,
// as its own segment (tasks of one chunk each), then calls push_stop(). Reached from the
// primary sink through connect().
//
//   auto driver = pump(streamify(in), distribute(chunk, w0, w1));
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/chunked_push.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Drives src into succ asynchronously.
template <class Src, class Succ>
class pump_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! Pumps src into succ in chunks of chunk elements.
    pump_node(Src&& src, Succ&& succ, std::size_t chunk)
        : src_(std::forward<Src>(src)), succ_(std::forward<Succ>(succ)), chunks_(chunk) {}

    //! Starts src and succ, declares the scratch, spawns the first chunk.
    void start(run_context& ctx) {
        src_.start(ctx);
        succ_.start(ctx);
        chunks_.declare(ctx, "pump chunk", src_);
        ctx_ = &ctx;
        spawn();
    }

private:
    void spawn() {
        ctx_->spawn([this] {
            if (chunks_.step(src_,
                             [&](const value_type* p, std::size_t k) { succ_.push_batch(p, k); }))
                spawn();
            else
                succ_.push_stop();
        });
    }

    stored_t<Src> src_;
    stored_t<Succ> succ_;
    chunked_push<value_type> chunks_;
    run_context* ctx_ = nullptr;
};

//! A segment pumping src into succ.
template <class Src, class Succ, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto pump(Src&& src, Succ&& succ, std::size_t chunk = default_chunk) {
    return pump_node<Src, Succ>(std::forward<Src>(src), std::forward<Succ>(succ), chunk);
}

}  // namespace emflow
