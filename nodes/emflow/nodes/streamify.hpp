// emflow/nodes/streamify.hpp: source file nodes. streamify() over an iterator range (zero-copy
// batches for random-access iterators), over a std::vector (plain pointers), and over an
// stxxl::vector forwards or backwards (STXXL's prefetching bufreader, opened at start()).
//
//   auto in = streamify(vec);            // stxxl::vector or std::vector
//   auto back = streamify_reverse(vec);  // stxxl::vector, last element first
//   auto r = streamify(first, last);     // any input iterators
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <stxxl/vector>

#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

namespace emflow {

//! Pull node over [first, last): batches are the rest of the range for random-access iterators,
//! copied chunks otherwise.
template <class It>
class range_source {
    static constexpr bool random_access = std::is_base_of_v<
        std::random_access_iterator_tag, typename std::iterator_traits<It>::iterator_category>;

public:
    using value_type = typename std::iterator_traits<It>::value_type;  //!< element type

    //! The range [first, last).
    range_source(It first, It last) : cur_(first), end_(last) {}

    //! Allocates the copy buffer of non-random-access ranges.
    void start(run_context&) {
        if constexpr (!random_access) buf_.allocate(default_chunk);
    }
    //! True at the end of the range.
    bool empty() {
        if constexpr (random_access)
            return cur_ == end_;
        else
            return buf_.exhausted() && !refill();
    }
    //! Current element.
    const value_type& operator*() {
        if constexpr (random_access)
            return *cur_;
        else
            return *batch_begin();
    }
    //! Advances by one.
    range_source& operator++() { return *this += 1; }
    //! Elements available at batch_begin().
    std::size_t batch_length() {
        if constexpr (random_access)
            return static_cast<std::size_t>(end_ - cur_);
        else
            return empty() ? 0 : buf_.length();
    }
    //! The current batch.
    auto batch_begin() {
        if constexpr (random_access)
            return cur_;
        else
            return buf_.begin();
    }
    //! Advances by n <= batch_length().
    range_source& operator+=(std::size_t n) {
        if constexpr (random_access)
            cur_ += static_cast<typename std::iterator_traits<It>::difference_type>(n);
        else
            buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        std::size_t n = 0;
        value_type* out = buf_.fill_area();
        for (; n < buf_.capacity() && cur_ != end_; ++n, ++cur_) out[n] = *cur_;
        buf_.filled(n);
        return n > 0;
    }

    It cur_, end_;
    batch_buffer<value_type> buf_;
};

//! Source over any iterator range.
template <class It>
range_source<It> streamify(It first, It last) {
    return range_source<It>(first, last);
}

//! Source over a std::vector's elements, batches through plain pointers.
template <class T, class A>
range_source<const T*> streamify(const std::vector<T, A>& v) {
    return range_source<const T*>(v.data(), v.data() + v.size());
}

//! Pull node over an stxxl::vector read with STXXL's overlapped bufreader (forwards or reverse).
template <class Vector, bool Reverse>
class stxxl_vector_source {
    using reader_type = std::conditional_t<Reverse, typename Vector::bufreader_reverse_type,
                                           typename Vector::bufreader_type>;

public:
    using value_type = typename Vector::value_type;  //!< element type

    //! Reads v, which must outlive the node and not change while the graph runs.
    explicit stxxl_vector_source(const Vector& v) : vec_(&v) {}

    //! Opens the reader (prefetching starts here), declares its buffers.
    void start(run_context& ctx) {
        ctx.memory().declare_run_long("vector reader", memory_demand::fixed(
            vector_stream_bytes<Vector>() + default_chunk * sizeof(value_type)));
        reader_ = std::make_unique<reader_type>(*vec_);
        buf_.allocate(default_chunk);
    }
    //! True at the end of the vector.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    stxxl_vector_source& operator++() { return *this += 1; }
    //! Elements available at batch_begin().
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The current batch.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    stxxl_vector_source& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        if (!reader_) return false;  // the end was reached before: empty() may be asked again
        std::size_t n = 0;
        value_type* out = buf_.fill_area();
        for (; n < buf_.capacity() && !reader_->empty(); ++n, ++*reader_) out[n] = **reader_;
        buf_.filled(n);
        if (n == 0) reader_.reset();  // release the prefetch buffers at the end
        return n > 0;
    }

    const Vector* vec_;
    std::unique_ptr<reader_type> reader_;
    batch_buffer<value_type> buf_;
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
