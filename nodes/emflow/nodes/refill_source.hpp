// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/refill_source.hpp: a pull node whose batches are refilled by a call,
// refill(T* out, size_t capacity) -> size_t (0 = end of stream, not called again). Generators,
// sorter outputs and container read sides (e.g. a priority queue's bulk extraction) are built on
// it. refill_transform(src, f) is the same over a pull node src it owns and starts:
// f(src, out, capacity) -> size_t reads src and fills out.
//
//   auto src = refill_source<std::uint64_t>([&](std::uint64_t* out, std::size_t cap) { ... });
//   auto pairs = refill_transform<pair_t>(text, [](auto& src, pair_t* out, std::size_t cap) { ...
//   });
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node over a refill callable; batches through a plain pointer.
template <class T, class Refill>
class refill_source_node : public buffered_pull<refill_source_node<T, Refill>, T> {
    friend class buffered_pull<refill_source_node, T>;

public:
    //! Wraps refill; chunk: batch capacity in elements.
    refill_source_node(Refill refill, std::size_t chunk)
        : buffered_pull<refill_source_node, T>(chunk), refill_(std::move(refill)) {}

    //! Declares the buffer (allocated at the first refill).
    void start(run_context& ctx) { this->declare_buffer(ctx, "refill chunk"); }

private:
    std::size_t refill(T* out, std::size_t cap) { return refill_(out, cap); }

    Refill refill_;
};

//! A pull node over refill(T* out, size_t cap) -> size_t; 0 ends the stream.
template <class T, class Refill>
refill_source_node<T, Refill> refill_source(Refill refill, std::size_t chunk = default_chunk) {
    return refill_source_node<T, Refill>(std::move(refill), chunk);
}

//! Pull node of T refilled by f(src, out, cap) from the pull node src, which it starts.
template <class T, class Src, class F>
class refill_transform_node : public buffered_pull<refill_transform_node<T, Src, F>, T> {
    friend class buffered_pull<refill_transform_node, T>;

public:
    //! f over src; chunk: batch capacity in elements.
    refill_transform_node(Src&& src, F f, std::size_t chunk)
        : buffered_pull<refill_transform_node, T>(chunk), src_(std::forward<Src>(src)),
          f_(std::move(f)) {}

    //! Starts src, declares the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        this->declare_buffer(ctx, "refill chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) { return f_(src_, out, cap); }

    stored_t<Src> src_;
    F f_;
};

//! A pull node of T whose batches f(src, T* out, size_t cap) -> size_t fills from src.
template <class T, class Src, class F, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto refill_transform(Src&& src, F f, std::size_t chunk = default_chunk) {
    return refill_transform_node<T, Src, F>(std::forward<Src>(src), std::move(f), chunk);
}

}  // namespace emflow
