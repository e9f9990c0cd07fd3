// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/count_sink.hpp: a push sink that discards its elements and counts them.
//
//   count_sink<std::uint64_t> counter;  ...  counter.count(), counter.stopped()
#pragma once

#include <emflow/node.hpp>

#include <cstddef>
#include <cstdint>

namespace emflow {

//! Push sink: counts and discards.
template <class T>
class count_sink {
public:
    using value_type = T;  //!< element type

    //! Nothing to start.
    void start(run_context&) {}
    //! Counts one element.
    void push(const T&) { ++count_; }
    //! Counts n elements.
    void push_batch(const T*, std::size_t n) { count_ += n; }
    //! Records the end of data.
    void push_stop() { stopped_ = true; }
    //! Elements pushed so far.
    std::uint64_t count() const { return count_; }
    //! True after push_stop().
    bool stopped() const { return stopped_; }

private:
    std::uint64_t count_ = 0;
    bool stopped_ = false;
};

}  // namespace emflow
