// SPDX-License-Identifier: BSL-1.0
// emflow/node.hpp: the node model of flow graphs (Beckmann, Dementiev, Singler, IPDPS 2009, sec.
// 3).
//
// A PULL node N with elements of type N::value_type offers
//   void start(run_context&)    start predecessors (pull edges backwards) and push successors
//   bool empty()                no element left (may wait for an async predecessor)
//   operator*()                 the current element (a const reference or a value)
//   N& operator++()             advance by one
//   size_t batch_length()       elements readily available at batch_begin(); >= 1 unless empty()
//   batch_begin()               random-access iterator to them, a plain const pointer where
//                               the node owns a buffer
//   N& operator+=(size_t n)     advance by n <= batch_length()
//   uint64_t skip(uint64_t n)   optional: advance by n (fewer at the end), reading what it
//                               passes only where that is cheapest; returns the elements passed
//                               (skip_ahead() in nodes/pull_base.hpp: the same for any node)
// A PUSH node P with elements P::value_type offers
//   void start(run_context&), void push(const T&), void push_batch(const T*, size_t),
//   void push_stop()            the end of data
//
// The lifecycle of every node, and what each call may do:
//   1. Construction: stores its parameters and predecessors/successors; no work, no I/O, no
//      allocation of buffers, no exceptions but for invalid parameters.
//   2. start(ctx), once per graph run, before any data call: opens files and readers, declares
//      its memory to ctx.memory(), spawns its own segment's tasks, starts its neighbours. It may
//      be reached twice in one run (a node that is pulled and pushed into) and must then be
//      idempotent.
//   3. Data. Pull side: operator*, batch_begin() and operator+= only after empty() returned false
//      (batch_length() calls it itself); the elements of a batch stay valid until the node is
//      advanced past them. Push side: push/push_batch any number of times, from one
//      thread at a time. Any call may throw (user code in lambdas, comparators, I/O); the
//      exception reaches the caller of materialize() after every segment stopped.
//   4. End of data. Pull side: once empty() returned true, it may be called any number of times
//      again and keeps returning true (without touching what the node released at its end), and
//      batch_length() returns 0. Push side: push_stop() once; then no further push.
//   5. Destruction: releases everything, also after a failed run (then without throwing).
// nodes/emflow/nodes/ has building blocks that keep this contract: pull_base and buffered_pull
// (pull_base.hpp: a node gives batches or a refill function), pass_through (pass_through.hpp),
// lambda sinks sink<T>(f) and batch_sink<T>(f) (sink.hpp), chunked_push and pull_into_sink
// (chunked_push.hpp). tests/nodes/conformance_test.cpp runs every node through it.
//
// materialize() (the primary sink) starts the graph, reaching every node by following pull
// edges backwards and push edges forwards, then drives it.
//
// Composition without a typedef per node: every factory takes its predecessor first, or is used
// after `|`:  auto out = streamify(v) | transform(f) | filter(p);  A predecessor passed as an
// lvalue is referenced (it must outlive the node: this is how graphs branch), an rvalue is moved
// into the node. Node bodies are lambdas.
#pragma once

#include <emflow/flow_runtime.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace emflow {

//! How a node stores a predecessor or successor passed to its factory: lvalues by reference,
//! rvalues by value.
template <class N>
using stored_t = std::conditional_t<std::is_lvalue_reference_v<N>, N, std::decay_t<N>>;

//! The element type of a node.
template <class N>
using value_t = typename std::decay_t<N>::value_type;

namespace detail {

template <class N, class = void>
struct is_pull_node : std::false_type {};
template <class N>
struct is_pull_node<N, std::void_t<typename N::value_type, decltype(std::declval<N&>().empty()),
                                   decltype(std::declval<N&>().batch_length())>> : std::true_type {
};

template <class N, class = void>
struct is_push_node : std::false_type {};
template <class N>
struct is_push_node<N,
                    std::void_t<typename N::value_type, decltype(std::declval<N&>().push_stop())>>
    : std::true_type {};

}  // namespace detail

//! True for a (decayed) type that implements the pull interface.
template <class N>
inline constexpr bool is_pull_node_v = detail::is_pull_node<std::decay_t<N>>::value;

//! True for a (decayed) type that implements the push interface.
template <class N>
inline constexpr bool is_push_node_v = detail::is_push_node<std::decay_t<N>>::value;

//! A partially applied node factory, completed by `source | stage`.
template <class Make>
struct pipe_stage {
    Make make;  //!< callable: predecessor -> node
};

//! Wraps a callable (predecessor -> node) into a stage usable after `|`.
template <class Make>
pipe_stage<Make> make_stage(Make make) {
    return {std::move(make)};
}

//! `src | stage`: builds the stage's node with src as predecessor.
template <class Src, class Make, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto operator|(Src&& src, pipe_stage<Make> stage) {
    return stage.make(std::forward<Src>(src));
}

//! Calls f(const T* data, size_t n) over the next n elements of a batch, through a plain pointer;
//! copies into scratch (of at least n elements) when the batch iterator is not a pointer.
template <class It, class T, class F>
void with_contiguous(It first, std::size_t n, T* scratch, F&& f) {
    if constexpr (std::is_pointer_v<It>) {
        f(static_cast<const T*>(first), n);
    } else {
        for (std::size_t i = 0; i < n; ++i) scratch[i] = first[i];
        f(static_cast<const T*>(scratch), n);
    }
}

//! Number of elements handed on per step by nodes that copy batches (split, collect, ...).
inline constexpr std::size_t default_chunk = 4096;

}  // namespace emflow
