// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/push_pull.hpp: push-pull node: synchronizes a pushing segment with a pulling one
// through two swapped buffers (Figure 3), doing no work itself. The two sides must run in
// different segments (e.g. the pushers are driven by an async node or a pump), otherwise the
// pusher waits forever for a swap.
//
// Its two buffers are sized like async_pull's (automatic, bytes(n) or elements(n) each).
//
//   push_pull_node<std::uint64_t> pp;  split(src, pp) ... ; auto tail = pp | transform(f);
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/swap_channel.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>

namespace emflow {

//! Push node on one side, pull node on the other.
template <class T>
class push_pull_node : public pull_base<push_pull_node<T>, T> {
    friend class pull_base<push_pull_node, T>;

public:
    //! Two buffers of the given size each.
    explicit push_pull_node(buffer_size size = {})
        : size_(size), channel_(std::make_unique<swap_channel<T>>()) {}

    //! Declares the buffers, allocated once assigned (once, though reached from both sides).
    void start(run_context& ctx) {
        if (started_) return;
        started_ = true;
        ctx.memory().declare_run_long(
            "push_pull buffers", async_buffer_demand<T>(size_),
            [this, &ctx](std::size_t b) { channel_->open(ctx, b / 2 / sizeof(T)); });
    }

    // ---- push side ----
    //! Buffers x (waits for a swap when the buffer is full).
    void push(const T& x) {
        channel_->producer_buffer()[fill_++] = x;
        if (fill_ == channel_->capacity()) hand_over(false);
    }
    //! Buffers n elements.
    void push_batch(const T* p, std::size_t n) {
        while (n > 0) {
            std::size_t k = std::min(n, channel_->capacity() - fill_);
            std::copy(p, p + k, channel_->producer_buffer() + fill_);
            fill_ += k;
            p += k;
            n -= k;
            if (fill_ == channel_->capacity()) hand_over(false);
        }
    }
    //! Publishes the last buffer.
    void push_stop() { hand_over(true); }

    // ---- pull side: pull_base's members over the buffers handed over ----

private:
    //! The next buffer handed over (waits for the pushers if needed).
    std::pair<const T*, const T*> next_batch() {
        while (more_) {
            more_ = channel_->swap_in();
            if (std::size_t n = channel_->consumer_length())
                return {channel_->consumer_data(), channel_->consumer_data() + n};
        }
        return {nullptr, nullptr};
    }

    void hand_over(bool last) {
        channel_->publish(fill_, last);
        fill_ = 0;
        if (!last) channel_->wait_swapped();
    }

    buffer_size size_;
    std::unique_ptr<swap_channel<T>> channel_;
    bool started_ = false;
    std::size_t fill_ = 0;
    bool more_ = true;
};

}  // namespace emflow
