// emflow/nodes/filter.hpp: scanning node keeping the elements for which pred holds; batches of
// the survivors through a plain pointer.
//
//   auto even = src | filter([](std::uint64_t x) { return x % 2 == 0; });
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node: the elements x of src with pred(x).
template <class Src, class Pred>
class filter_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src filtered by pred.
    filter_node(Src&& src, Pred pred) : src_(std::forward<Src>(src)), pred_(std::move(pred)) {}

    //! Starts src, allocates the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        buf_.allocate(default_chunk);
    }
    //! True when no further element passes.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    filter_node& operator++() { return *this += 1; }
    //! Survivors buffered.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered survivors.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    filter_node& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        value_type* out = buf_.fill_area();
        std::size_t k = 0;
        while (k == 0 && !src_.empty()) {
            std::size_t n = std::min(src_.batch_length(), buf_.capacity() - k);
            auto in = src_.batch_begin();
            for (std::size_t i = 0; i < n; ++i) {  // branch-free compaction
                out[k] = in[i];
                k += pred_(out[k]) ? 1 : 0;
            }
            src_ += n;
        }
        buf_.filled(k);
        return k > 0;
    }

    stored_t<Src> src_;
    Pred pred_;
    batch_buffer<value_type> buf_;
};

//! The elements of src that satisfy pred.
template <class Src, class Pred, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto filter(Src&& src, Pred pred) {
    return filter_node<Src, Pred>(std::forward<Src>(src), std::move(pred));
}

//! Stage for `src | filter(pred)`.
template <class Pred>
auto filter(Pred pred) {
    return make_stage([pred = std::move(pred)](auto&& src) {
        return filter(std::forward<decltype(src)>(src), pred);
    });
}

}  // namespace emflow
