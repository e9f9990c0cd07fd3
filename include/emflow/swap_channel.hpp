// SPDX-License-Identifier: BSL-1.0
// emflow/swap_channel.hpp: the two swapped buffers of an asynchronous node (Figure 3 of the
// parallel pipelining paper). The producer fills its buffer and publishes it; the consumer, once
// its own buffer is used up, swaps the two. Both sides wait (by suspending the task, see
// flow_runtime.hpp) only when the other side is behind: the producer for the swap, the consumer
// for a published buffer.
#pragma once

#include <emflow/flow_runtime.hpp>

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace emflow {

//! Producer buffer + consumer buffer, swapped when the producer's is full and the consumer's empty.
template <class T>
class swap_channel {
public:
    //! Allocates both buffers (capacity elements each) and registers with ctx for cancellation.
    void open(run_context& ctx, std::size_t capacity) {
        ctx_ = &ctx;
        prod_.resize(capacity > 0 ? capacity : 1);
        cons_.resize(prod_.size());
        ctx.register_wait_point(mutex_, producer_wait_);
        ctx.register_wait_point(mutex_, consumer_wait_);
    }

    //! Capacity of a buffer in elements.
    std::size_t capacity() const { return prod_.size(); }

    // ---- producer side ----
    //! The producer's buffer; valid until publish().
    T* producer_buffer() { return prod_.data(); }
    //! Hands the first n elements of the producer buffer to the consumer; last: end of stream.
    void publish(std::size_t n, bool last) {
        std::lock_guard<std::mutex> lock(mutex_);
        published_ = true;
        published_len_ = n;
        last_ = last;
        consumer_wait_.notify_all();
    }
    //! Waits until the consumer swapped the published buffer away (the producer may then refill).
    void wait_swapped() {
        std::unique_lock<std::mutex> lock(mutex_);
        producer_wait_.wait(lock, *ctx_, [&] { return !published_; });
    }
    //! True while a published buffer waits for the consumer.
    bool pending() {
        std::lock_guard<std::mutex> lock(mutex_);
        return published_;
    }

    // ---- consumer side ----
    //! Waits for a published buffer and swaps it in; returns false if it was the last one.
    //! The consumer then reads consumer_data()[0, consumer_length()).
    bool swap_in() {
        std::unique_lock<std::mutex> lock(mutex_);
        consumer_wait_.wait(lock, *ctx_, [&] { return published_; });
        std::swap(prod_, cons_);
        cons_len_ = published_len_;
        published_ = false;
        bool more = !last_;
        producer_wait_.notify_all();
        return more;
    }
    //! True if a buffer is published (swap_in() would not wait).
    bool ready() {
        std::lock_guard<std::mutex> lock(mutex_);
        return published_;
    }
    //! The consumer's buffer.
    const T* consumer_data() const { return cons_.data(); }
    //! Valid elements in the consumer's buffer.
    std::size_t consumer_length() const { return cons_len_; }

private:
    run_context* ctx_ = nullptr;
    std::vector<T> prod_, cons_;
    std::size_t cons_len_ = 0;
    std::mutex mutex_;
    wait_point producer_wait_, consumer_wait_;
    bool published_ = false;
    std::size_t published_len_ = 0;
    bool last_ = false;
};

}  // namespace emflow
