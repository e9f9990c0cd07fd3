// emflow/nodes/split.hpp: branches a stream. While being pulled, passes src through and pushes
// every element it advances past side-ways into one or more push successors; push_stop() reaches
// them when src runs empty.
//
//   auto main_path = split(src, side_sorter);    // side_sorter receives a copy of every element
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

namespace emflow {

//! Pull node passing src through and pushing it into Succs.
template <class Src, class... Succs>
class split_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src, copied into succs.
    split_node(Src&& src, Succs&&... succs)
        : src_(std::forward<Src>(src)), succs_(std::forward<Succs>(succs)...) {}

    //! Starts src and the push successors.
    void start(run_context& ctx) {
        src_.start(ctx);
        std::apply([&](auto&... s) { (s.start(ctx), ...); }, succs_);
        scratch_.resize(default_chunk);
    }
    //! True when src is empty; the first time, stops the successors.
    bool empty() {
        if (!src_.empty()) return false;
        if (!stopped_) {
            stopped_ = true;
            std::apply([](auto&... s) { (s.push_stop(), ...); }, succs_);
        }
        return true;
    }
    //! src's current element.
    decltype(auto) operator*() { return *src_; }
    //! Pushes the current element, advances.
    split_node& operator++() {
        value_type x = *src_;
        std::apply([&](auto&... s) { (s.push(x), ...); }, succs_);
        ++src_;
        return *this;
    }
    //! src's batch length.
    std::size_t batch_length() { return src_.batch_length(); }
    //! src's batch.
    auto batch_begin() { return src_.batch_begin(); }
    //! Pushes n elements, advances.
    split_node& operator+=(std::size_t n) {
        auto b = src_.batch_begin();
        for (std::size_t done = 0; done < n;) {
            std::size_t k = std::min(n - done, scratch_.size());
            with_contiguous(b + done, k, scratch_.data(), [&](const value_type* p, std::size_t m) {
                std::apply([&](auto&... s) { (s.push_batch(p, m), ...); }, succs_);
            });
            done += k;
        }
        src_ += n;
        return *this;
    }

private:
    stored_t<Src> src_;
    std::tuple<stored_t<Succs>...> succs_;
    std::vector<value_type> scratch_;
    bool stopped_ = false;
};

//! src passed through and copied into the push nodes succs.
template <class Src, class... Succs, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto split(Src&& src, Succs&&... succs) {
    return split_node<Src, Succs...>(std::forward<Src>(src), std::forward<Succs>(succs)...);
}

}  // namespace emflow
