// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/take.hpp: the first k elements of a pull source, then empty (a head, a top-k).
//
//   materialize(file_source<record>(path) | take(10), std::back_inserter(first_ten));
//
// take reads no element of its source past the k-th, but a source that refills in batches may
// have produced more: behind a priority queue, pq_source_first(q, k) pops only the k items.
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pass_through.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace emflow {

//! Pull node: the first k elements of src (all of them if src has fewer).
template <class Src>
class take_node : public pass_through<take_node<Src>, Src> {
    using base = pass_through<take_node<Src>, Src>;

public:
    //! The first k elements of src.
    take_node(Src&& src, std::uint64_t k) : base(std::forward<Src>(src)), left_(k) {}

    //! True after k elements or at src's end.
    bool empty() { return left_ == 0 || this->src().empty(); }
    //! Advances by one.
    take_node& operator++() {
        ++this->src();
        --left_;
        return *this;
    }
    //! src's batch, cut at the k-th element.
    std::size_t batch_length() {
        if (empty()) return 0;
        return std::size_t(std::min<std::uint64_t>(left_, this->src().batch_length()));
    }
    //! Advances by n <= batch_length().
    take_node& operator+=(std::size_t n) {
        this->src() += n;
        left_ -= n;
        return *this;
    }

private:
    std::uint64_t left_;  // elements still to emit
};

//! The first k elements of src.
template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
take_node<Src> take(Src&& src, std::uint64_t k) {
    return take_node<Src>(std::forward<Src>(src), k);
}

//! Stage for `src | take(k)`.
inline auto take(std::uint64_t k) {
    return make_stage([k](auto&& src) { return take(std::forward<decltype(src)>(src), k); });
}

//! The first k elements of src: take(src, k) under the name of the Unix tool.
template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
take_node<Src> head(Src&& src, std::uint64_t k) {
    return take(std::forward<Src>(src), k);
}

//! Stage for `src | head(k)`.
inline auto head(std::uint64_t k) { return take(k); }

}  // namespace emflow
