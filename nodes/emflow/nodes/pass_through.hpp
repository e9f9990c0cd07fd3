// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/pass_through.hpp: the pull members of a node that passes its predecessor's
// elements and batches through (tap, split, connect, transform, progress counters), written once.
// A node derives from pass_through<Derived, Src> and redefines only the members it changes; a
// redefined operator+= must be accompanied by operator++ if single steps must see it too.
//
//   template <class Src> class counted : public pass_through<counted<Src>, Src> { ... };
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node passing src through unchanged; the base of nodes that look at or add to it.
template <class Derived, class Src>
class pass_through {
public:
    using value_type = value_t<Src>;  //!< element type

    //! Passes src through (referenced if an lvalue, moved in otherwise).
    explicit pass_through(Src&& src) : src_(std::forward<Src>(src)) {}

    //! Starts src.
    void start(run_context& ctx) { src_.start(ctx); }
    //! src's empty().
    bool empty() { return src_.empty(); }
    //! src's current element.
    decltype(auto) operator*() { return *src_; }
    //! Advances src by one.
    Derived& operator++() {
        ++src_;
        return derived();
    }
    //! src's batch length.
    std::size_t batch_length() { return src_.batch_length(); }
    //! src's batch.
    auto batch_begin() { return src_.batch_begin(); }
    //! Advances src by n.
    Derived& operator+=(std::size_t n) {
        src_ += n;
        return derived();
    }

protected:
    //! The predecessor.
    stored_t<Src>& src() { return src_; }
    //! This node as its derived type.
    Derived& derived() { return static_cast<Derived&>(*this); }

private:
    stored_t<Src> src_;
};

}  // namespace emflow
