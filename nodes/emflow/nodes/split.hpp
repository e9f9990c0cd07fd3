// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/split.hpp: branches a stream. While being pulled, passes src through and pushes
// every element it advances past side-ways into one or more push successors; push_stop() reaches
// them when src runs empty.
//
//   auto main_path = split(src, side_sorter);    // side_sorter receives a copy of every element
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/chunked_push.hpp>
#include <emflow/nodes/pass_through.hpp>

#include <cstddef>
#include <tuple>
#include <utility>

namespace emflow {

//! Pull node passing src through and pushing it into Succs.
template <class Src, class... Succs>
class split_node : public pass_through<split_node<Src, Succs...>, Src> {
    using T = value_t<Src>;

public:
    //! src, copied into succs.
    split_node(Src&& src, Succs&&... succs)
        : pass_through<split_node, Src>(std::forward<Src>(src)),
          succs_(std::forward<Succs>(succs)...) {}

    //! Starts src and the push successors, declares the scratch.
    void start(run_context& ctx) {
        this->src().start(ctx);
        std::apply([&](auto&... s) { (s.start(ctx), ...); }, succs_);
        chunks_.declare(ctx, "split chunk", this->src());
    }
    //! True when src is empty; the first time, stops the successors.
    bool empty() {
        if (!this->src().empty()) return false;
        if (!stopped_) {
            stopped_ = true;
            std::apply([](auto&... s) { (s.push_stop(), ...); }, succs_);
        }
        return true;
    }
    //! Pushes the current element, advances.
    split_node& operator++() {
        T x = *this->src();
        std::apply([&](auto&... s) { (s.push(x), ...); }, succs_);
        ++this->src();
        return *this;
    }
    //! src's batch length (asks empty() first, which stops the successors at the end).
    std::size_t batch_length() { return empty() ? 0 : this->src().batch_length(); }
    //! Pushes n elements, advances.
    split_node& operator+=(std::size_t n) {
        chunks_.each(this->src().batch_begin(), n, [&](const T* p, std::size_t m) {
            std::apply([&](auto&... s) { (s.push_batch(p, m), ...); }, succs_);
        });
        this->src() += n;
        return *this;
    }

private:
    std::tuple<stored_t<Succs>...> succs_;
    chunked_push<T> chunks_;
    bool stopped_ = false;
};

//! src passed through and copied into the push nodes succs.
template <class Src, class... Succs, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto split(Src&& src, Succs&&... succs) {
    return split_node<Src, Succs...>(std::forward<Src>(src), std::forward<Succs>(succs)...);
}

}  // namespace emflow
