// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/chunked_push.hpp: moving elements from a pull node into push nodes, written once.
// A chunked_push<T> hands a pull node's batches on as contiguous chunks of at most chunk
// elements (plain pointers; a batch whose iterator is not a pointer is copied into a scratch
// buffer first), and drives the "pull into a push sink" loop of the nodes that bridge pull to
// push (materialize into a push node, pump, the PQ's producers, split's side outputs).
//
//   chunked_push<T> chunks;                                     // scratch allocated on demand
//   chunks.declare(ctx, "split chunk", src);                    // in start(): to the budget
//   chunks.drain(src, [&](const T* p, std::size_t n) { sink.push_batch(p, n); });
//   pull_into_sink(src, sink, chunks);                          // the same, then sink.push_stop()
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace emflow {

//! Hands batches of pull nodes on as contiguous chunks of at most `chunk` elements.
template <class T>
class chunked_push {
public:
    //! Chunks of at most chunk elements (at least one).
    explicit chunked_push(std::size_t chunk = default_chunk)
        : chunk_(std::max<std::size_t>(chunk, 1)) {}

    //! Calls f(const T*, k) over the n elements at first (a batch iterator), chunk by chunk.
    template <class It, class F>
    void each(It first, std::size_t n, F&& f) {
        for (std::size_t done = 0; done < n;) {
            const std::size_t k = std::min(n - done, chunk_);
            with_contiguous(first + done, k, scratch<It>(), f);
            done += k;
        }
    }
    //! Hands on src's next chunk (at most one batch); false at src's end.
    template <class Src, class F>
    bool step(Src& src, F&& f) {
        if (src.empty()) return false;
        const std::size_t n = std::min(src.batch_length(), chunk_);
        with_contiguous(src.batch_begin(), n, scratch<decltype(src.batch_begin())>(), f);
        src += n;
        return true;
    }
    //! Declares the scratch to the run's budget if src's batches are copied (their iterator is
    //! not a plain pointer); call from start().
    template <class Src>
    void declare(run_context& ctx, const char* name, Src& src) const {
        if constexpr (!std::is_pointer_v<decltype(src.batch_begin())>)
            ctx.memory().declare_run_long(name, memory_demand::fixed(chunk_ * sizeof(T)));
    }
    //! Hands on all of src.
    template <class Src, class F>
    void drain(Src& src, F&& f) {
        while (step(src, f)) {
        }
    }

private:
    //! Scratch for copying batches of iterator type It (none for pointers).
    template <class It>
    T* scratch() {
        if constexpr (std::is_pointer_v<It>) {
            return nullptr;
        } else {
            if (scratch_.empty()) scratch_.resize(chunk_);
            return scratch_.data();
        }
    }

    std::size_t chunk_;
    std::vector<T> scratch_;
};

//! The "pull into a push sink" loop: pushes all of src into sink in chunks, then push_stop().
template <class Src, class Sink, class T>
void pull_into_sink(Src& src, Sink& sink, chunked_push<T>& chunks) {
    chunks.drain(src, [&](const T* p, std::size_t n) { sink.push_batch(p, n); });
    sink.push_stop();
}

}  // namespace emflow
