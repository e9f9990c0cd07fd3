// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/vector_sink.hpp: a push sink that writes an stxxl::vector (replaced) front to back,
// with overlapped block writes: the writer of materialize(src, v), as a push node for push
// graphs and wherever a push sink is expected (e.g. erased into an any_push_sink<T>). A failed
// write (a full disk) is thrown from push, push_batch, append or push_stop.
//
//   stxxl::vector<std::uint64_t> v;
//   materialize(src, vector_sink(v));   // v holds src's elements after push_stop
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/vector_appender.hpp>

#include <cstddef>
#include <memory>

namespace emflow {

//! Push sink writing an stxxl::vector of type Vector; the vector must outlive the node.
template <class Vector>
class vector_sink_node {
public:
    using value_type = typename Vector::value_type;  //!< element type

    //! Will replace v's contents (nothing happens before start()).
    explicit vector_sink_node(Vector& v) : v_(&v) {}

    //! Declares the writer's blocks and clears the vector.
    void start(run_context& ctx) {
        declare(ctx);
        writer_ = std::make_unique<vector_appender<Vector>>(*v_);
    }
    //! Declares what start() declares, the writer's blocks, without touching a vector
    //! (least_memory).
    static void declare(run_context& ctx) {
        ctx.memory().declare_run_long("vector writer",
                                      memory_demand::fixed(vector_stream_bytes<Vector>()));
    }
    //! Appends x.
    void push(const value_type& x) { *writer_ << x; }
    //! Appends n elements.
    void push_batch(const value_type* p, std::size_t n) { append(p, n); }
    //! Appends the n elements at first, any iterator (materialize() hands on a pull node's
    //! batches without copying them into a chunk first).
    template <class It>
    void append(It first, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) *writer_ << first[i];
    }
    //! Writes what is left and waits for it: the vector then holds exactly what was pushed.
    void push_stop() { writer_->finish(); }

private:
    Vector* v_;
    std::unique_ptr<vector_appender<Vector>> writer_;
};

//! A push sink replacing v's contents by the elements pushed.
template <class Vector>
vector_sink_node<Vector> vector_sink(Vector& v) {
    return vector_sink_node<Vector>(v);
}

}  // namespace emflow
