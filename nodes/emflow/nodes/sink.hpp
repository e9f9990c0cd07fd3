// emflow/nodes/sink.hpp: push sinks whose body is a lambda: batch_sink<T>(f) calls
// f(const T* data, size_t n) per batch (single pushes are batches of one); an optional second
// callable runs at push_stop().
//
//   materialize(src, batch_sink<pair_t>([&](const pair_t* p, std::size_t n) { ... }));
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <utility>

namespace emflow {

//! Push sink calling f per batch and stop() at the end of data.
template <class T, class F, class Stop>
class batch_sink_node {
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

//! A push sink of T calling f(const T*, size_t) per batch.
template <class T, class F>
auto batch_sink(F f) {
    auto none = [] {};
    return batch_sink_node<T, F, decltype(none)>(std::move(f), none);
}

//! A push sink of T calling f(const T*, size_t) per batch and stop() at the end of data.
template <class T, class F, class Stop>
auto batch_sink(F f, Stop stop) {
    return batch_sink_node<T, F, Stop>(std::move(f), std::move(stop));
}

}  // namespace emflow
