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
#include <emflow/swap_channel.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>

namespace emflow {

//! Pull node decoupling src (run in its own segment) from its consumer.
template <class Src>
class async_pull_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src run asynchronously with two buffers of the given size each.
    async_pull_node(Src&& src, buffer_size size)
        : src_(std::forward<Src>(src)), size_(size),
          channel_(std::make_unique<swap_channel<value_type>>()) {}

    //! Starts src, declares the buffers (allocated once assigned), spawns the first fill.
    void start(run_context& ctx) {
        src_.start(ctx);
        ctx_ = &ctx;
        ctx.memory().declare_run_long("async_pull buffers", async_buffer_demand<value_type>(size_),
                                      [this, &ctx](std::size_t b) {
                                          channel_->open(ctx, b / 2 / sizeof(value_type));
                                      });
        spawn_fill();
    }
    //! True at the end of src (waits for the producer if needed).
    bool empty() {
        while (pos_ == channel_->consumer_length()) {
            if (!more_) return true;
            more_ = channel_->swap_in();
            pos_ = 0;
            if (more_) spawn_fill();
        }
        return false;
    }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    async_pull_node& operator++() { return *this += 1; }
    //! Elements left in the consumer buffer.
    std::size_t batch_length() { return empty() ? 0 : channel_->consumer_length() - pos_; }
    //! The consumer buffer.
    const value_type* batch_begin() { return channel_->consumer_data() + pos_; }
    //! Advances by n <= batch_length().
    async_pull_node& operator+=(std::size_t n) {
        pos_ += n;
        return *this;
    }

private:
    void spawn_fill() {
        ctx_->spawn([this] {
            value_type* out = channel_->producer_buffer();
            std::size_t n = 0, cap = channel_->capacity();
            while (n < cap && !src_.empty()) {
                std::size_t k = std::min(src_.batch_length(), cap - n);
                auto in = src_.batch_begin();
                for (std::size_t i = 0; i < k; ++i) out[n + i] = in[i];
                src_ += k;
                n += k;
            }
            channel_->publish(n, src_.empty());
        });
    }

    stored_t<Src> src_;
    buffer_size size_;
    std::unique_ptr<swap_channel<value_type>> channel_;
    run_context* ctx_ = nullptr;
    std::size_t pos_ = 0;
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
