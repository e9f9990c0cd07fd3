// emflow/nodes/refill_source.hpp: a pull node whose batches are refilled by a call,
// refill(T* out, size_t capacity) -> size_t (0 = end of stream). Generators, sorter outputs and
// container read sides (e.g. a priority queue's bulk extraction) are built on it.
//
//   auto src = from_refill<std::uint64_t>([&](std::uint64_t* out, std::size_t cap) { ... });
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node over a refill callable; batches through a plain pointer.
template <class T, class Refill>
class refill_source {
public:
    using value_type = T;  //!< element type

    //! Wraps refill; chunk: batch capacity in elements.
    refill_source(Refill refill, std::size_t chunk) : refill_(std::move(refill)), chunk_(chunk) {}

    //! Allocates the batch buffer.
    void start(run_context&) { buf_.allocate(chunk_); }
    //! True at the end of the stream.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    refill_source& operator++() { return *this += 1; }
    //! Elements available at batch_begin().
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The current batch.
    const T* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    refill_source& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        if (ended_) return false;
        std::size_t n = refill_(buf_.fill_area(), buf_.capacity());
        buf_.filled(n);
        ended_ = n == 0;
        return !ended_;
    }

    Refill refill_;
    std::size_t chunk_;
    batch_buffer<T> buf_;
    bool ended_ = false;
};

//! A pull node over refill(T* out, size_t cap) -> size_t; 0 ends the stream.
template <class T, class Refill>
refill_source<T, Refill> from_refill(Refill refill, std::size_t chunk = default_chunk) {
    return refill_source<T, Refill>(std::move(refill), chunk);
}

}  // namespace emflow
