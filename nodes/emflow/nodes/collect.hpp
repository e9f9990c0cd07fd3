// emflow/nodes/collect.hpp: pull node reading several inputs round-robin, chunk elements from
// each in turn (Figure 7); with distribute()'s chunk it restores the original order. An input
// that ends is skipped from then on.
//
//   auto all = collect(chunk, async_pull(gen0), async_pull(gen1));
// With distribute(), every buffer on the worker paths must divide chunk (see distribute.hpp).
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>
#include <emflow/nodes/distribute.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace emflow {

//! Pull node: chunk elements of the first input, chunk of the second, ...
template <class... Srcs>
class collect_node {
    static constexpr std::size_t k = sizeof...(Srcs);

public:
    using value_type = value_t<std::tuple_element_t<0, std::tuple<Srcs...>>>;  //!< element type

    //! Collects chunk elements at a time from srcs.
    collect_node(std::size_t chunk, Srcs&&... srcs)
        : chunk_(chunk > 0 ? chunk : 1), srcs_(std::forward<Srcs>(srcs)...) {}

    //! Starts every input.
    void start(run_context& ctx) {
        std::apply([&](auto&... s) { (s.start(ctx), ...); }, srcs_);
        buf_.allocate(default_chunk);
    }
    //! True when every input ended.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    collect_node& operator++() { return *this += 1; }
    //! Buffered elements.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered elements.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    collect_node& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        value_type* out = buf_.fill_area();
        std::size_t filled = 0;
        while (filled < buf_.capacity() && ended_count_ < k) {
            bool ended = false;
            detail::visit_at(srcs_, current_, [&](auto& s) {
                if (ended_[current_] || s.empty()) {
                    ended = true;
                    return;
                }
                std::size_t m = std::min({s.batch_length(), chunk_ - taken_, buf_.capacity() - filled});
                auto in = s.batch_begin();
                for (std::size_t i = 0; i < m; ++i) out[filled + i] = in[i];
                s += m;
                filled += m;
                taken_ += m;
            });
            if (ended && !ended_[current_]) {
                ended_[current_] = true;
                ++ended_count_;
            }
            if (ended || taken_ == chunk_) {
                taken_ = 0;
                current_ = (current_ + 1) % k;
            }
        }
        buf_.filled(filled);
        return filled > 0;
    }

    std::size_t chunk_;
    std::tuple<stored_t<Srcs>...> srcs_;
    batch_buffer<value_type> buf_;
    std::array<bool, k> ended_{};
    std::size_t ended_count_ = 0, current_ = 0, taken_ = 0;
};

//! Round-robin collection from srcs, chunk elements each.
template <class... Srcs>
auto collect(std::size_t chunk, Srcs&&... srcs) {
    return collect_node<Srcs...>(chunk, std::forward<Srcs>(srcs)...);
}

}  // namespace emflow
