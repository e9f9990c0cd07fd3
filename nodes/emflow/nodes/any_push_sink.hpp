// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/any_push_sink.hpp: a push node of T standing for any push node of T, by reference
// (type erasure: one indirect call per batch). Lets a graph whose type would depend on its sink's
// type be compiled once for all sinks (e.g. a long pipeline in a library translation unit).
//
//   file_sink<std::uint32_t> file("out");
//   any_push_sink<std::uint32_t> out(file);     // file must outlive out
//   run_long_pipeline(out);                     // instantiated once for any_push_sink
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <memory>

namespace emflow {

//! Push node forwarding to a push node of T held by reference.
template <class T>
class any_push_sink {
public:
    using value_type = T;  //!< element type

    //! Forwards to sink, which must outlive this node.
    template <class Sink>
    explicit any_push_sink(Sink& sink)
        : sink_(std::addressof(sink)),
          start_([](void* s, run_context& ctx) { static_cast<Sink*>(s)->start(ctx); }),
          push_batch_(
              [](void* s, const T* p, std::size_t n) { static_cast<Sink*>(s)->push_batch(p, n); }),
          push_stop_([](void* s) { static_cast<Sink*>(s)->push_stop(); }) {}

    //! Starts the sink.
    void start(run_context& ctx) { start_(sink_, ctx); }
    //! Pushes x.
    void push(const T& x) { push_batch_(sink_, &x, 1); }
    //! Pushes n elements.
    void push_batch(const T* p, std::size_t n) { push_batch_(sink_, p, n); }
    //! Ends the sink's data.
    void push_stop() { push_stop_(sink_); }

private:
    void* sink_;
    void (*start_)(void*, run_context&);
    void (*push_batch_)(void*, const T*, std::size_t);
    void (*push_stop_)(void*);
};

}  // namespace emflow
