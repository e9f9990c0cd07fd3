// emflow/node.hpp: the node model of flow graphs (Beckmann, Dementiev, Singler, IPDPS 2009, sec. 3).
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
// A PUSH node P with elements P::value_type offers
//   void start(run_context&), void push(const T&), void push_batch(const T*, size_t),
//   void push_stop()            the end of data
// Construction does no work. materialize() (the primary sink) starts the graph, reaching every
// node by following pull edges backwards and push edges forwards, then drives it. start() may be
// reached twice (a node that is pulled and pushed into) and must then be idempotent.
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
                                   decltype(std::declval<N&>().batch_length())>>
    : std::true_type {};

}  // namespace detail

//! True for a (decayed) type that implements the pull interface.
template <class N>
inline constexpr bool is_pull_node_v = detail::is_pull_node<std::decay_t<N>>::value;

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
