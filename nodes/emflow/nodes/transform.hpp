// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/transform.hpp: scanning node applying f to every element, lazily: batch_begin()
// is an iterator computing f on access, so a chain of transforms fuses into the consumer's loop.
// f should be pure (it may run more than once per element); use tap() for side effects.
//
//   auto doubled = streamify(v) | transform([](std::uint64_t x) { return 2 * x; });
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pass_through.hpp>
#include <emflow/requirements.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace emflow {

//! Random-access view of a batch through f (supports [i], * and +).
template <class It, class F>
class transform_iterator {
public:
    //! Wraps it; f must outlive the iterator.
    transform_iterator(It it, const F* f) : it_(it), f_(f) {}
    //! f of the i-th element.
    decltype(auto) operator[](std::size_t i) const { return (*f_)(it_[i]); }
    //! f of the first element.
    decltype(auto) operator*() const { return (*f_)(*it_); }
    //! The view shifted by n.
    transform_iterator operator+(std::size_t n) const { return {it_ + n, f_}; }

private:
    It it_;
    const F* f_;
};

//! Pull node: f(x) for every x of src.
template <class Src, class F>
class transform_node : public pass_through<transform_node<Src, F>, Src> {
    static_assert(is_transform_of_v<F, value_t<Src>>,
                  "emflow::transform(f): f must be callable as f(const T&) with T the source's "
                  "element type, and return the new element");

public:
    //! element type
    using value_type = std::decay_t<std::invoke_result_t<const F&, const value_t<Src>&>>;

    //! f applied to src.
    transform_node(Src&& src, F f)
        : pass_through<transform_node, Src>(std::forward<Src>(src)), f_(std::move(f)) {}

    //! f of src's current element.
    value_type operator*() { return f_(*this->src()); }
    //! src's batch seen through f.
    auto batch_begin() {
        return transform_iterator<decltype(this->src().batch_begin()), F>(this->src().batch_begin(),
                                                                          &f_);
    }

private:
    F f_;
};

//! f applied to every element of src.
template <class Src, class F, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto transform(Src&& src, F f) {
    return transform_node<Src, F>(std::forward<Src>(src), std::move(f));
}

//! Stage for `src | transform(f)`.
template <class F>
auto transform(F f) {
    return make_stage(
        [f = std::move(f)](auto&& src) { return transform(std::forward<decltype(src)>(src), f); });
}

}  // namespace emflow
