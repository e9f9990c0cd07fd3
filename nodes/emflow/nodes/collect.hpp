// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/collect.hpp: pull node reading several inputs round-robin, chunk elements from
// each in turn (Figure 7); with distribute()'s chunk it restores the original order. An input
// that ends is skipped from then on.
//
//   auto all = collect(chunk, async_pull(gen0), async_pull(gen1));
// With distribute(), every buffer on the worker paths must divide chunk (see distribute.hpp).
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/distribute.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace emflow {

//! Pull node: chunk elements of the first input, chunk of the second, ...
template <class... Srcs>
class collect_node : public buffered_pull<collect_node<Srcs...>,
                                          value_t<std::tuple_element_t<0, std::tuple<Srcs...>>>> {
    static constexpr std::size_t k = sizeof...(Srcs);
    using T = value_t<std::tuple_element_t<0, std::tuple<Srcs...>>>;
    friend class buffered_pull<collect_node, T>;

public:
    //! Collects chunk elements at a time from srcs.
    collect_node(std::size_t chunk, Srcs&&... srcs)
        : chunk_(chunk > 0 ? chunk : 1), srcs_(std::forward<Srcs>(srcs)...) {}

    //! Starts every input, declares the buffer.
    void start(run_context& ctx) {
        std::apply([&](auto&... s) { (s.start(ctx), ...); }, srcs_);
        this->declare_buffer(ctx, "collect chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t filled = 0;
        while (filled < cap && ended_count_ < k) {
            bool ended = false;
            detail::visit_at(srcs_, current_, [&](auto& s) {
                if (ended_[current_] || s.empty()) {
                    ended = true;
                    return;
                }
                std::size_t m = std::min({s.batch_length(), chunk_ - taken_, cap - filled});
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
        return filled;
    }

    std::size_t chunk_;
    std::tuple<stored_t<Srcs>...> srcs_;
    std::array<bool, k> ended_{};
    std::size_t ended_count_ = 0, current_ = 0, taken_ = 0;
};

//! Round-robin collection from srcs, chunk elements each.
template <class... Srcs>
auto collect(std::size_t chunk, Srcs&&... srcs) {
    return collect_node<Srcs...>(chunk, std::forward<Srcs>(srcs)...);
}

}  // namespace emflow
