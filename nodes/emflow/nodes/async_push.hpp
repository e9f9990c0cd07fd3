// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/async_push.hpp: asynchronous push node. Pushes land in the producer buffer; a
// task of the shared arena pushes each full buffer into the successor (one buffer per task,
// re-spawned while buffers are pending), so the pusher and the successor run in parallel.
// push_stop() returns at once; the successor's push_stop() follows its last buffer.
//
// Its two buffers are sized like async_pull's (automatic, bytes(n) or elements(n) each).
//
//   auto side = async_push(sorter);  auto main = split(src, side);
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/swap_channel.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

namespace emflow {

//! Push node decoupling its pushers from succ.
template <class Succ>
class async_push_node {
public:
    using value_type = value_t<Succ>;  //!< element type

    //! succ fed asynchronously through two buffers of the given size each.
    async_push_node(Succ&& succ, buffer_size size)
        : succ_(std::forward<Succ>(succ)), size_(size), state_(std::make_unique<state>()) {}

    //! Starts succ, declares the buffers (allocated once assigned).
    void start(run_context& ctx) {
        succ_.start(ctx);
        ctx_ = &ctx;
        ctx.memory().declare_run_long(
            "async_push buffers", async_buffer_demand<value_type>(size_),
            [this, &ctx](std::size_t b) { state_->channel.open(ctx, b / 2 / sizeof(value_type)); });
        fill_ = 0;
    }
    //! Buffers x.
    void push(const value_type& x) {
        state_->channel.producer_buffer()[fill_++] = x;
        if (fill_ == state_->channel.capacity()) hand_over(false);
    }
    //! Buffers n elements.
    void push_batch(const value_type* p, std::size_t n) {
        while (n > 0) {
            std::size_t k = std::min(n, state_->channel.capacity() - fill_);
            std::copy(p, p + k, state_->channel.producer_buffer() + fill_);
            fill_ += k;
            p += k;
            n -= k;
            if (fill_ == state_->channel.capacity()) hand_over(false);
        }
    }
    //! Hands over the last buffer; the successor is stopped asynchronously.
    void push_stop() { hand_over(true); }

private:
    struct state {
        swap_channel<value_type> channel;
        std::mutex mutex;       // guards draining
        bool draining = false;  // a drain task is spawned or running
    };

    void hand_over(bool last) {
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            state_->channel.publish(fill_, last);
            if (!state_->draining) {
                state_->draining = true;
                spawn_drain();
            }
        }
        fill_ = 0;
        if (!last) state_->channel.wait_swapped();
    }

    void spawn_drain() {
        ctx_->spawn([this] {
            bool more = state_->channel.swap_in();
            if (std::size_t n = state_->channel.consumer_length())
                succ_.push_batch(state_->channel.consumer_data(), n);
            if (!more) {
                succ_.push_stop();
                return;
            }
            std::lock_guard<std::mutex> lock(state_->mutex);
            if (state_->channel.ready())
                spawn_drain();
            else
                state_->draining = false;
        });
    }

    stored_t<Succ> succ_;
    buffer_size size_;
    std::unique_ptr<state> state_;
    run_context* ctx_ = nullptr;
    std::size_t fill_ = 0;
};

//! An async push node in front of succ, with two buffers of the given size each.
template <class Succ>
auto async_push(Succ&& succ, buffer_size size = {}) {
    return async_push_node<Succ>(std::forward<Succ>(succ), size);
}

}  // namespace emflow
