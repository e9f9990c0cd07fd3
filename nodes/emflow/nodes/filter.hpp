// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/filter.hpp: scanning node keeping the elements for which pred holds; batches of
// the survivors through a plain pointer.
//
//   auto even = src | filter([](std::uint64_t x) { return x % 2 == 0; });
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/requirements.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node: the elements x of src with pred(x).
template <class Src, class Pred>
class filter_node : public buffered_pull<filter_node<Src, Pred>, value_t<Src>> {
    using T = value_t<Src>;
    friend class buffered_pull<filter_node, T>;
    static_assert(is_predicate_of_v<Pred, T>,
                  "emflow::filter(pred): pred must be callable as pred(const T&) with T the "
                  "source's element type, and return bool");

public:
    //! src filtered by pred.
    filter_node(Src&& src, Pred pred) : src_(std::forward<Src>(src)), pred_(std::move(pred)) {}

    //! Starts src, declares the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        this->declare_buffer(ctx, "filter chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t k = 0;
        while (k == 0 && !src_.empty()) {
            std::size_t n = std::min(src_.batch_length(), cap);
            auto in = src_.batch_begin();
            for (std::size_t i = 0; i < n; ++i) {  // branch-free compaction
                out[k] = in[i];
                k += pred_(out[k]) ? 1 : 0;
            }
            src_ += n;
        }
        return k;
    }

    stored_t<Src> src_;
    Pred pred_;
};

//! The elements of src that satisfy pred.
template <class Src, class Pred, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto filter(Src&& src, Pred pred) {
    return filter_node<Src, Pred>(std::forward<Src>(src), std::move(pred));
}

//! Stage for `src | filter(pred)`.
template <class Pred>
auto filter(Pred pred) {
    return make_stage([pred = std::move(pred)](auto&& src) {
        return filter(std::forward<decltype(src)>(src), pred);
    });
}

}  // namespace emflow
