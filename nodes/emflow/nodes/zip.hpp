// emflow/nodes/zip.hpp: joins two pull inputs element by element into std::pairs; ends with the
// shorter input. The rest of the longer input is then read and discarded, so that every node
// upstream of it finishes: a split there still pushes the whole stream into its side outputs
// and stops them (otherwise a side segment would wait for push_stop() forever).
//
//   auto pairs = zip(left, right);   // value_type std::pair<L, R>
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace emflow {

//! Pull node: (a_i, b_i) pairs.
template <class A, class B>
class zip_node {
public:
    using value_type = std::pair<value_t<A>, value_t<B>>;  //!< element type

    //! Joins a and b.
    zip_node(A&& a, B&& b) : a_(std::forward<A>(a)), b_(std::forward<B>(b)) {}

    //! Starts both inputs.
    void start(run_context& ctx) {
        a_.start(ctx);
        b_.start(ctx);
        buf_.allocate(default_chunk);
    }
    //! True when either input is empty.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current pair.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    zip_node& operator++() { return *this += 1; }
    //! Buffered pairs.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered pairs.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    zip_node& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        if (a_.empty() || b_.empty()) {
            drain(a_);
            drain(b_);
            return false;
        }
        std::size_t n = std::min({a_.batch_length(), b_.batch_length(), buf_.capacity()});
        auto ia = a_.batch_begin();
        auto ib = b_.batch_begin();
        value_type* out = buf_.fill_area();
        for (std::size_t i = 0; i < n; ++i) out[i] = value_type(ia[i], ib[i]);
        a_ += n;
        b_ += n;
        buf_.filled(n);
        return true;
    }

    template <class N>
    static void drain(N& n) {
        while (!n.empty()) n += n.batch_length();
    }

    stored_t<A> a_;
    stored_t<B> b_;
    batch_buffer<value_type> buf_;
};

//! Pairs of the elements of a and b.
template <class A, class B,
          std::enable_if_t<is_pull_node_v<A> && is_pull_node_v<B>, int> = 0>
auto zip(A&& a, B&& b) {
    return zip_node<A, B>(std::forward<A>(a), std::forward<B>(b));
}

}  // namespace emflow
