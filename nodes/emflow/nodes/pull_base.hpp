// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/pull_base.hpp: the six pull members (empty, operator*, operator++, batch_length,
// batch_begin, operator+=) written once, for nodes that hand out their elements batch by batch.
//
// pull_base<Derived, T, It> serves batches a node already holds (a buffer swapped in by an async
// node, a file chunk, a whole in-memory range): the node implements
//   std::pair<It, It> next_batch()    the next batch [first, last); an empty one ends the stream
// buffered_pull<Derived, T> serves batches copied into a buffer it owns (filters, joins,
// generators, scans): the node implements
//   std::size_t refill(T* out, std::size_t cap)   fills out[0, n) with n <= cap; 0 ends the stream
// Either hook is called only when the previous batch was consumed, and never again once it ended
// the stream: empty() may be asked any number of times after it returned true, so a node built
// on these bases keeps the contract of node.hpp even if its own inputs could not be asked again.
// The hooks may be private, with `friend class pull_base<...>;` or `friend class
// buffered_pull<...>;`. A node that can jump ahead without reading what it passes gives a
// skip(n) member (node.hpp), built on held() and drop_batch(); skip_ahead(src, n) advances any
// node, by its skip() where it has one.
//
//   template <class Src> class doubled : public buffered_pull<doubled<Src>, std::uint64_t> {
//       ...
//       std::size_t refill(std::uint64_t* out, std::size_t cap) {   // reads src_ until cap
//           return read_into(src_, out, cap, [](std::uint64_t x) { return 2 * x; });
//       }
//   };
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>

namespace emflow {

//! The pull members over batches [first, last) given by Derived::next_batch() (file comment).
template <class Derived, class T, class It = const T*>
class pull_base {
public:
    using value_type = T;  //!< element type

    //! True at the end of the stream; may be asked again afterwards.
    bool empty() { return cur_ == end_ && !next(); }
    //! Current element (after empty() returned false).
    decltype(auto) operator*() { return *cur_; }
    //! Advances by one.
    Derived& operator++() { return derived() += 1; }
    //! Elements available at batch_begin(); 0 at the end.
    std::size_t batch_length() { return empty() ? 0 : static_cast<std::size_t>(end_ - cur_); }
    //! The current batch.
    It batch_begin() { return cur_; }
    //! Advances by n <= batch_length().
    Derived& operator+=(std::size_t n) {
        cur_ += static_cast<typename std::iterator_traits<It>::difference_type>(n);
        return derived();
    }

protected:
    //! Elements left in the current batch (without fetching the next).
    std::size_t held() const { return static_cast<std::size_t>(end_ - cur_); }
    //! Passes the rest of the current batch over: the next element comes from next_batch() (a
    //! node that jumps ahead in skip() drops what it held).
    void drop_batch() { cur_ = end_; }

private:
    Derived& derived() { return static_cast<Derived&>(*this); }

    bool next() {
        if (ended_) return false;
        std::pair<It, It> b = derived().next_batch();
        cur_ = b.first;
        end_ = b.second;
        ended_ = cur_ == end_;
        return !ended_;
    }

    It cur_{}, end_{};
    bool ended_ = false;
};

//! The pull members over a buffer of chunk elements refilled by Derived::refill(out, cap)
//! (file comment). The buffer is allocated at the first refill (never in a constructor) and freed
//! at the end of the stream; the node declares it in start() by declare_buffer(ctx, name).
template <class Derived, class T>
class buffered_pull : public pull_base<Derived, T> {
    friend class pull_base<Derived, T>;

public:
    //! A buffer of chunk elements (at least one).
    explicit buffered_pull(std::size_t chunk = default_chunk)
        : cap_(std::max<std::size_t>(chunk, 1)) {}
    //! Moves the buffer with the node.
    buffered_pull(buffered_pull&&) noexcept = default;
    //! Move-assigns the buffer with the node.
    buffered_pull& operator=(buffered_pull&&) noexcept = default;

protected:
    //! Declares the buffer to the run's budget (run-long: it may be held from the first pull to
    //! the end); call from start().
    void declare_buffer(run_context& ctx, const char* name) const {
        ctx.memory().declare_run_long(name, memory_demand::fixed(cap_ * sizeof(T)));
    }

private:
    std::pair<const T*, const T*> next_batch() {
        if (!buf_) buf_ = std::make_unique<T[]>(cap_);
        const std::size_t n = static_cast<Derived&>(*this).refill(buf_.get(), cap_);
        if (n == 0) buf_.reset();  // the end: the buffer is not needed again
        return {buf_.get(), buf_.get() + n};
    }

    std::size_t cap_;
    std::unique_ptr<T[]> buf_;
};

//! Copies up to cap elements of src into out, seen through f; returns their number (less than
//! cap only at src's end).
template <class Src, class T, class F>
std::size_t read_into(Src& src, T* out, std::size_t cap, F&& f) {
    std::size_t k = 0;
    while (k < cap && !src.empty()) {
        const std::size_t n = std::min(src.batch_length(), cap - k);
        auto in = src.batch_begin();
        for (std::size_t i = 0; i < n; ++i) out[k + i] = f(in[i]);
        src += n;
        k += n;
    }
    return k;
}

//! Copies up to cap elements of src into out; returns their number (less only at src's end).
template <class Src, class T>
std::size_t read_into(Src& src, T* out, std::size_t cap) {
    return read_into(src, out, cap, [](const auto& x) -> decltype(auto) { return x; });
}

namespace detail {

//! Advances src by n elements (fewer at its end) batch by batch; returns the elements passed.
template <class Src>
std::uint64_t pass_batches(Src& src, std::uint64_t n) {
    std::uint64_t done = 0;
    while (done < n) {
        const std::size_t len = std::min<std::uint64_t>(src.batch_length(), n - done);
        if (len == 0) break;
        src += len;
        done += len;
    }
    return done;
}

template <class Src, class = void>
struct has_skip : std::false_type {};
template <class Src>
struct has_skip<Src, std::void_t<decltype(std::declval<Src&>().skip(std::uint64_t(0)))>>
    : std::true_type {};

}  // namespace detail

//! Advances src by n elements (fewer at its end), by its skip(n) where it has one (a node that can
//! jump without reading what it passes: file_source, any_pull_source over one), else batch by
//! batch; returns the elements passed.
template <class Src>
std::uint64_t skip_ahead(Src& src, std::uint64_t n) {
    if constexpr (detail::has_skip<Src>::value)
        return src.skip(n);
    else
        return detail::pass_batches(src, n);
}

}  // namespace emflow
