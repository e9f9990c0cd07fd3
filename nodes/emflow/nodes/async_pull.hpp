// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/async_pull.hpp: asynchronous pull node. A task of the shared arena pulls src into
// the producer buffer while the consumer reads the other buffer (Figure 3); the task fills one
// buffer and returns, and is spawned again after each swap. Gives batch access through a plain
// pointer even when src is element-wise only. Its two buffers are sized by the run's budget
// (automatic, the default) or explicitly: bytes(n) or elements(n) per buffer.
//
//   auto a = streamify(v) | heavy | async_pull(bytes(1 << 20)) | more_work;
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/swap_channel.hpp>

#include <cstddef>
#include <memory>
#include <utility>

namespace emflow {

//! Pull node decoupling src (run in its own segment) from its consumer.
template <class Src>
class async_pull_node : public pull_base<async_pull_node<Src>, value_t<Src>> {
    using T = value_t<Src>;
    friend class pull_base<async_pull_node, T>;

public:
    //! src run asynchronously with two buffers of the given size each.
    async_pull_node(Src&& src, buffer_size size)
        : src_(std::forward<Src>(src)), size_(size), channel_(std::make_unique<swap_channel<T>>()) {
    }

    //! Starts src, declares the buffers (allocated once assigned), spawns the first fill.
    void start(run_context& ctx) {
        src_.start(ctx);
        ctx_ = &ctx;
        ctx.memory().declare_run_long(
            "async_pull buffers", async_buffer_demand<T>(size_),
            [this, &ctx](std::size_t b) { channel_->open(ctx, b / 2 / sizeof(T)); });
        spawn_fill();
    }

private:
    //! The next filled buffer (waits for the producer if needed); spawns the next fill.
    std::pair<const T*, const T*> next_batch() {
        while (more_) {
            more_ = channel_->swap_in();
            if (more_) spawn_fill();
            if (std::size_t n = channel_->consumer_length())
                return {channel_->consumer_data(), channel_->consumer_data() + n};
        }
        return {nullptr, nullptr};
    }

    void spawn_fill() {
        ctx_->spawn([this] {
            std::size_t n = read_into(src_, channel_->producer_buffer(), channel_->capacity());
            channel_->publish(n, src_.empty());
        });
    }

    stored_t<Src> src_;
    buffer_size size_;
    std::unique_ptr<swap_channel<T>> channel_;
    run_context* ctx_ = nullptr;
    bool more_ = true;
};

//! src decoupled by an async pull node with two buffers of the given size each.
template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto async_pull(Src&& src, buffer_size size = {}) {
    return async_pull_node<Src>(std::forward<Src>(src), size);
}

//! Stage for `src | async_pull(size)`.
inline auto async_pull(buffer_size size = {}) {
    return make_stage(
        [size](auto&& src) { return async_pull(std::forward<decltype(src)>(src), size); });
}

}  // namespace emflow
