// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/sink.hpp: push sinks whose body is a lambda. sink<T>(f) calls f(const T&) per
// element; batch_sink<T>(f) calls f(const T* data, size_t n) per batch (single pushes are batches
// of one). An optional second callable runs at push_stop().
//
//   materialize(src, sink<pair_t>([&](const pair_t& p) { ... }));
//   materialize(src, batch_sink<pair_t>([&](const pair_t* p, std::size_t n) { ... }));
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Push sink calling f per batch and stop() at the end of data.
template <class T, class F, class Stop>
class batch_sink_node {
    static_assert(std::is_invocable_v<F&, const T*, std::size_t>,
                  "emflow::batch_sink<T>(f): f must be callable as f(const T* data, size_t n)");

public:
    using value_type = T;  //!< element type

    //! Batches to f, the end to stop.
    batch_sink_node(F f, Stop stop) : f_(std::move(f)), stop_(std::move(stop)) {}

    //! Nothing to start.
    void start(run_context&) {}
    //! f(&x, 1).
    void push(const T& x) { f_(&x, std::size_t(1)); }
    //! f(p, n).
    void push_batch(const T* p, std::size_t n) { f_(p, n); }
    //! stop().
    void push_stop() { stop_(); }

private:
    F f_;
    Stop stop_;
};

//! Push sink calling f per element and stop() at the end of data.
template <class T, class F, class Stop>
class lambda_sink_node {
    static_assert(std::is_invocable_v<F&, const T&>,
                  "emflow::sink<T>(f): f must be callable as f(const T&) with T the sink's "
                  "element type");

public:
    using value_type = T;  //!< element type

    //! Elements to f, the end to stop.
    lambda_sink_node(F f, Stop stop) : f_(std::move(f)), stop_(std::move(stop)) {}

    //! Nothing to start.
    void start(run_context&) {}
    //! f(x).
    void push(const T& x) { f_(x); }
    //! f(p[i]) for each of the n elements.
    void push_batch(const T* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) f_(p[i]);
    }
    //! stop().
    void push_stop() { stop_(); }

private:
    F f_;
    Stop stop_;
};

namespace detail {
//! The default end-of-data callable of the lambda sinks.
struct no_stop {
    void operator()() const {}
};
}  // namespace detail

//! A push sink of T calling f(const T*, size_t) per batch.
template <class T, class F>
auto batch_sink(F f) {
    return batch_sink_node<T, F, detail::no_stop>(std::move(f), {});
}

//! A push sink of T calling f(const T*, size_t) per batch and stop() at the end of data.
template <class T, class F, class Stop>
auto batch_sink(F f, Stop stop) {
    return batch_sink_node<T, F, Stop>(std::move(f), std::move(stop));
}

//! A push sink of T calling f(const T&) per element.
template <class T, class F>
auto sink(F f) {
    return lambda_sink_node<T, F, detail::no_stop>(std::move(f), {});
}

//! A push sink of T calling f(const T&) per element and stop() at the end of data.
template <class T, class F, class Stop>
auto sink(F f, Stop stop) {
    return lambda_sink_node<T, F, Stop>(std::move(f), std::move(stop));
}

}  // namespace emflow
