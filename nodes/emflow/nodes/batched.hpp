// emflow/nodes/batched.hpp: gives batch access to a node written element-wise only (empty(),
// operator*(), operator++() and a start(run_context&)), by copying chunks into a buffer.
//
//   auto b = batched(my_elementwise_node);
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace emflow {

//! Pull node with batches over an element-wise node.
template <class Src>
class batched_node {
public:
    using value_type = std::decay_t<decltype(*std::declval<std::decay_t<Src>&>())>;  //!< element type

    //! Wraps src; chunk: batch capacity.
    batched_node(Src&& src, std::size_t chunk) : src_(std::forward<Src>(src)), chunk_(chunk) {}

    //! Starts src, allocates the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        buf_.allocate(chunk_);
    }
    //! True at the end of src.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    batched_node& operator++() { return *this += 1; }
    //! Buffered elements.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered elements.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    batched_node& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        value_type* out = buf_.fill_area();
        std::size_t n = 0;
        for (; n < buf_.capacity() && !src_.empty(); ++n, ++src_) out[n] = *src_;
        buf_.filled(n);
        return n > 0;
    }

    stored_t<Src> src_;
    std::size_t chunk_;
    batch_buffer<value_type> buf_;
};

//! Batch access over the element-wise node src.
template <class Src>
auto batched(Src&& src, std::size_t chunk = default_chunk) {
    return batched_node<Src>(std::forward<Src>(src), chunk);
}

}  // namespace emflow
