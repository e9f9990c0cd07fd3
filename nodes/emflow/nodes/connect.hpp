// emflow/nodes/connect.hpp: makes a part of a graph reachable from the primary sink (Figure 7).
// connect(src, other) passes src through; start() starts `other` (e.g. a pump driving a
// distribute/collect construct) before src. No data crosses the extra edge.
//
//   auto out = connect(collect(chunk, pp0, pp1), driver);
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node passing src through, starting other first.
template <class Src, class Other>
class connect_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src, with other started alongside.
    connect_node(Src&& src, Other&& other)
        : src_(std::forward<Src>(src)), other_(std::forward<Other>(other)) {}

    //! Starts other, then src.
    void start(run_context& ctx) {
        other_.start(ctx);
        src_.start(ctx);
    }
    //! src's empty().
    bool empty() { return src_.empty(); }
    //! src's current element.
    decltype(auto) operator*() { return *src_; }
    //! Advances src.
    connect_node& operator++() {
        ++src_;
        return *this;
    }
    //! src's batch length.
    std::size_t batch_length() { return src_.batch_length(); }
    //! src's batch.
    auto batch_begin() { return src_.batch_begin(); }
    //! Advances src by n.
    connect_node& operator+=(std::size_t n) {
        src_ += n;
        return *this;
    }

private:
    stored_t<Src> src_;
    stored_t<Other> other_;
};

//! src, with other started before it.
template <class Src, class Other, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto connect(Src&& src, Other&& other) {
    return connect_node<Src, Other>(std::forward<Src>(src), std::forward<Other>(other));
}

}  // namespace emflow
