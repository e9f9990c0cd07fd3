// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/streamify.hpp: source file nodes. streamify() over an iterator range (zero-copy
// batches for random-access iterators), over a std::vector (plain pointers), and over an
// stxxl::vector forwards or backwards (STXXL's prefetching bufreader, opened at start()).
//
//   auto in = streamify(vec);            // stxxl::vector or std::vector
//   auto back = streamify_reverse(vec);  // stxxl::vector, last element first
//   auto r = streamify(first, last);     // any input iterators
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <stxxl/vector>

#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow {

//! Pull node over [first, last) of random-access iterators: one batch, the whole range.
template <class It>
class range_source
    : public pull_base<range_source<It>, typename std::iterator_traits<It>::value_type, It> {
    friend class pull_base<range_source, typename std::iterator_traits<It>::value_type, It>;

public:
    //! The range [first, last).
    range_source(It first, It last) : first_(first), last_(last) {}

    //! Nothing to start.
    void start(run_context&) {}

private:
    std::pair<It, It> next_batch() { return {std::exchange(first_, last_), last_}; }

    It first_, last_;
};

//! Pull node over [first, last) of input iterators: batches are copied chunks.
template <class It>
class copied_range_source
    : public buffered_pull<copied_range_source<It>, typename std::iterator_traits<It>::value_type> {
    using T = typename std::iterator_traits<It>::value_type;
    friend class buffered_pull<copied_range_source, T>;

public:
    //! The range [first, last).
    copied_range_source(It first, It last) : cur_(first), end_(last) {}

    //! Declares the buffer (allocated at the first refill).
    void start(run_context& ctx) { this->declare_buffer(ctx, "range chunk"); }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t n = 0;
        for (; n < cap && cur_ != end_; ++n, ++cur_) out[n] = *cur_;
        return n;
    }

    It cur_, end_;
};

//! Source over any iterator range: batches are the rest of the range for random-access
//! iterators, copied chunks otherwise.
template <class It>
auto streamify(It first, It last) {
    if constexpr (std::is_base_of_v<std::random_access_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>)
        return range_source<It>(first, last);
    else
        return copied_range_source<It>(first, last);
}

//! Source over a std::vector's elements, batches through plain pointers.
template <class T, class A>
range_source<const T*> streamify(const std::vector<T, A>& v) {
    return range_source<const T*>(v.data(), v.data() + v.size());
}

//! Pull node over an stxxl::vector read with STXXL's overlapped bufreader (forwards or reverse).
template <class Vector, bool Reverse>
class stxxl_vector_source
    : public buffered_pull<stxxl_vector_source<Vector, Reverse>, typename Vector::value_type> {
    using reader_type = std::conditional_t<Reverse, typename Vector::bufreader_reverse_type,
                                           typename Vector::bufreader_type>;
    using T = typename Vector::value_type;
    friend class buffered_pull<stxxl_vector_source, T>;

public:
    //! Reads v, which must outlive the node and not change while the graph runs.
    explicit stxxl_vector_source(const Vector& v) : vec_(&v) {}

    //! Opens the reader (prefetching starts here), declares its buffers.
    void start(run_context& ctx) {
        ctx.memory().declare_run_long(
            "vector reader",
            memory_demand::fixed(vector_stream_bytes<Vector>() + default_chunk * sizeof(T)));
        reader_ = std::make_unique<reader_type>(*vec_);
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t n = 0;
        for (; n < cap && !reader_->empty(); ++n, ++*reader_) out[n] = **reader_;
        if (n == 0) reader_.reset();  // release the prefetch buffers at the end
        return n;
    }

    const Vector* vec_;
    std::unique_ptr<reader_type> reader_;
};

//! Source over an stxxl::vector, first to last.
template <class T, unsigned P, class Pager, unsigned B, class A, class S>
auto streamify(const stxxl::vector<T, P, Pager, B, A, S>& v) {
    return stxxl_vector_source<stxxl::vector<T, P, Pager, B, A, S>, false>(v);
}

//! Source over an stxxl::vector, last to first.
template <class T, unsigned P, class Pager, unsigned B, class A, class S>
auto streamify_reverse(const stxxl::vector<T, P, Pager, B, A, S>& v) {
    return stxxl_vector_source<stxxl::vector<T, P, Pager, B, A, S>, true>(v);
}

}  // namespace emflow
