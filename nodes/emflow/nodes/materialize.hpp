// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/materialize.hpp: the primary sink. materialize() starts the whole graph (pull
// edges backwards, push edges forwards), runs it in the shared arena, and rethrows the first
// exception of any node (also from async segments on other threads) after every segment stopped.
//
//   materialize(streamify(in) | transform(f), out);   // out: stxxl::vector, replaced
//   materialize(src, std::back_inserter(v));          // any output iterator
//   materialize(src, sink);                           // a push node: pushes all, then push_stop
//
// Each takes run_options last: one memory budget and a thread count for the whole graph, and a
// progress report per phase (emflow/memory_budget.hpp):
//
//   materialize(graph, out, {512 << 20, 4, &report});
//
// least_memory(graph, out) tells the least budget materialize(graph, out) accepts, without
// running it.
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/chunked_push.hpp>
#include <emflow/nodes/vector_sink.hpp>

#include <stxxl/vector>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace emflow {

namespace detail {

template <class I, class = void>
struct is_iterator : std::false_type {};
template <class I>
struct is_iterator<I, std::void_t<typename std::iterator_traits<I>::iterator_category>>
    : std::true_type {};

//! N keeps its output only when committed after the run (file_sink::commit()).
template <class N, class = void>
struct holds_until_commit : std::false_type {};
template <class N>
struct holds_until_commit<N, std::void_t<decltype(std::declval<N&>().commit())>> : std::true_type {
};

//! Sink, as deduced by a forwarding reference, is a temporary that holds until commit().
template <class Sink>
constexpr bool uncommittable_v =
    !std::is_lvalue_reference_v<Sink> && holds_until_commit<std::decay_t<Sink>>::value;

//! Pulls src to its end, calling f(batch iterator, n) per batch.
template <class Src, class F>
void drain(Src& src, F&& f) {
    while (!src.empty()) {
        std::size_t n = src.batch_length();
        f(src.batch_begin(), n);
        src += n;
    }
}

}  // namespace detail

//! Runs the graph ending in src, writing its elements to out; returns the final iterator.
template <class Src, class OutIt, std::enable_if_t<detail::is_iterator<OutIt>::value, int> = 0>
OutIt materialize(Src&& src, OutIt out, const run_options& opt = {}) {
    static_assert(is_pull_node_v<Src>, "emflow::materialize(src, out): src must be a pull node");
    run_graph([&](run_context& ctx) { src.start(ctx); },
              [&](run_context&) {
                  detail::drain(src, [&](auto first, std::size_t n) {
                      for (std::size_t i = 0; i < n; ++i) *out++ = first[i];
                  });
              },
              opt);
    return out;
}

//! Runs the graph ending in src, replacing out's contents by its elements.
template <class Src, class T, unsigned P, class Pager, unsigned B, class A, class S>
void materialize(Src&& src, stxxl::vector<T, P, Pager, B, A, S>& out, const run_options& opt = {}) {
    static_assert(is_pull_node_v<Src>, "emflow::materialize(src, out): src must be a pull node");
    auto writer = vector_sink(out);  // clears out when it starts
    run_graph(
        [&](run_context& ctx) {
            src.start(ctx);
            writer.start(ctx);
        },
        [&](run_context&) {
            detail::drain(src, [&](auto first, std::size_t n) { writer.append(first, n); });
            writer.push_stop();
        },
        opt);
}

namespace detail {

//! What materialize(src, sink) starts: src, sink and the chunk between them.
template <class Src, class Sink, class T>
void start_into_sink(run_context& ctx, Src& src, Sink& sink, chunked_push<T>& chunks) {
    src.start(ctx);
    sink.start(ctx);
    chunks.declare(ctx, "push chunk", src);
}

}  // namespace detail

//! Runs the graph ending in src, pushing its elements into the push node sink (then push_stop).
template <class Src, class Sink,
          std::enable_if_t<is_push_node_v<Sink> && !detail::uncommittable_v<Sink>, int> = 0>
void materialize(Src&& src, Sink&& sink, const run_options& opt = {}) {
    static_assert(is_pull_node_v<Src>, "emflow::materialize(src, sink): src must be a pull node");
    using T = value_t<Src>;
    static_assert(std::is_same_v<T, value_t<Sink>>,
                  "emflow::materialize(src, sink): the source's element type must be the sink's; "
                  "convert with src | transform(...)");
    chunked_push<T> chunks;
    run_graph([&](run_context& ctx) { detail::start_into_sink(ctx, src, sink, chunks); },
              [&](run_context&) { pull_into_sink(src, sink, chunks); }, opt);
}

//! The least budget with which materialize(src, out) runs, out an output iterator. Takes the
//! graph (started, it cannot run again): its inputs are opened, nothing is read.
template <class Src, class OutIt, std::enable_if_t<detail::is_iterator<OutIt>::value, int> = 0>
std::size_t least_memory(Src src, const OutIt&) {
    return least_budget([&](run_context& ctx) { src.start(ctx); });
}

//! The least budget with which materialize(src, out) runs, out an stxxl::vector (its writer's
//! blocks included; out is not touched). Takes the graph as above.
template <class Src, class T, unsigned P, class Pager, unsigned B, class A, class S>
std::size_t least_memory(Src src, const stxxl::vector<T, P, Pager, B, A, S>&) {
    return least_budget([&](run_context& ctx) {
        src.start(ctx);
        vector_sink_node<stxxl::vector<T, P, Pager, B, A, S>>::declare(ctx);
    });
}

//! The least budget with which materialize(src, sink) runs, sink a push node, whose memory (a
//! file_sink's writer, 2 MiB) it includes: it starts sink as materialize would (a file_sink
//! creates its temporary file), which a later materialize(src2, sink) may start again; not for
//! a sink whose start() does more (a bulk_push_session's sink opens the queue's bulk phase).
//! Takes the graph as above.
template <class Src, class Sink, std::enable_if_t<is_push_node_v<Sink>, int> = 0>
std::size_t least_memory(Src src, Sink&& sink) {
    chunked_push<value_t<Src>> chunks;
    return least_budget([&](run_context& ctx) { detail::start_into_sink(ctx, src, sink, chunks); });
}

//! Refused ("use of deleted function"): a temporary sink that keeps its output only on commit()
//! (a file_sink) would lose it, nothing could commit it. Name the sink, then call commit().
template <class Src, class Sink,
          std::enable_if_t<is_push_node_v<Sink> && detail::uncommittable_v<Sink>, int> = 0>
void materialize(Src&& src, Sink&& sink, const run_options& opt = {}) = delete;

//! The least budget with which materialize(src, sink) runs for a push sink that holds no memory
//! of its own (a lambda sink); least_memory(src, out) counts out's memory too. Takes the graph
//! as above.
template <class Src>
std::size_t least_memory(Src src) {
    chunked_push<value_t<Src>> chunks;
    return least_budget([&](run_context& ctx) {
        src.start(ctx);
        chunks.declare(ctx, "push chunk", src);
    });
}

}  // namespace emflow
