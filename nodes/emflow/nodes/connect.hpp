// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/connect.hpp: makes a part of a graph reachable from the primary sink (Figure 7).
// connect(src, other) passes src through; start() starts `other` (e.g. a pump driving a
// distribute/collect construct) before src. No data crosses the extra edge.
//
//   auto out = connect(collect(chunk, pp0, pp1), driver);
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pass_through.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node passing src through, starting other first.
template <class Src, class Other>
class connect_node : public pass_through<connect_node<Src, Other>, Src> {
public:
    //! src, with other started alongside.
    connect_node(Src&& src, Other&& other)
        : pass_through<connect_node, Src>(std::forward<Src>(src)),
          other_(std::forward<Other>(other)) {}

    //! Starts other, then src.
    void start(run_context& ctx) {
        other_.start(ctx);
        this->src().start(ctx);
    }

private:
    stored_t<Other> other_;
};

//! src, with other started before it.
template <class Src, class Other, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto connect(Src&& src, Other&& other) {
    return connect_node<Src, Other>(std::forward<Src>(src), std::forward<Other>(other));
}

}  // namespace emflow
