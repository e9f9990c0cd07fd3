// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/tap.hpp: scanning node that shows every element, exactly once and in order, to a
// callable as the consumer advances past it (batches pass through unchanged); checksum() taps
// an order-independent checksum.
//
//   checksum sum;  auto s = src | tap_checksum(sum);  ...  sum.value()
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pass_through.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace emflow {

//! Order-independent checksum of elements that are std::pairs or trivially copyable without
//! padding (sum and xor of mixed hashes, plus the count).
class checksum {
public:
    //! Adds one element.
    template <class T>
    void add(const T& x) {
        std::uint64_t h = hash(x);
        sum_ += h;
        xor_ ^= h;
        ++count_;
    }
    //! Elements added.
    std::uint64_t count() const { return count_; }
    //! Combined value.
    std::uint64_t value() const { return sum_ ^ (xor_ * 0xD6E8FEB86659FD93ull) ^ count_; }
    //! Same multiset (with high probability).
    bool operator==(const checksum& o) const {
        return sum_ == o.sum_ && xor_ == o.xor_ && count_ == o.count_;
    }
    //! Different multisets.
    bool operator!=(const checksum& o) const { return !(*this == o); }

private:
    static std::uint64_t mix(std::uint64_t v) {
        v = (v ^ (v >> 31)) * 0x7FB5D329728EA185ull;
        return v ^ (v >> 27);
    }
    template <class A, class B>
    static std::uint64_t hash(const std::pair<A, B>& p) {
        return mix(hash(p.first) * 0x9E3779B97F4A7C15ull ^ hash(p.second));
    }
    template <class T>
    static std::uint64_t hash(const T& x) {
        static_assert(std::is_trivially_copyable_v<T>, "checksum needs trivially copyable T");
        std::uint64_t h = 0x9E3779B97F4A7C15ull;
        const unsigned char* p = reinterpret_cast<const unsigned char*>(&x);
        for (std::size_t i = 0; i < sizeof(T); i += 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, p + i, sizeof(T) - i < 8 ? sizeof(T) - i : 8);
            h = mix(h ^ w);
        }
        return h;
    }
    std::uint64_t sum_ = 0, xor_ = 0, count_ = 0;
};

//! Pull node passing src through, calling f(x) for every element x it advances past.
template <class Src, class F>
class tap_node : public pass_through<tap_node<Src, F>, Src> {
public:
    //! src observed by f.
    tap_node(Src&& src, F f)
        : pass_through<tap_node, Src>(std::forward<Src>(src)), f_(std::move(f)) {}

    //! Shows the current element to f, advances.
    tap_node& operator++() {
        f_(*this->src());
        ++this->src();
        return *this;
    }
    //! Shows n elements to f, advances.
    tap_node& operator+=(std::size_t n) {
        auto b = this->src().batch_begin();
        for (std::size_t i = 0; i < n; ++i) f_(b[i]);
        this->src() += n;
        return *this;
    }

private:
    F f_;
};

//! src observed by f.
template <class Src, class F, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto tap(Src&& src, F f) {
    return tap_node<Src, F>(std::forward<Src>(src), std::move(f));
}

//! Stage for `src | tap(f)`.
template <class F>
auto tap(F f) {
    return make_stage(
        [f = std::move(f)](auto&& src) { return tap(std::forward<decltype(src)>(src), f); });
}

//! src with every element added to sum (which must outlive the graph run).
template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto tap_checksum(Src&& src, checksum& sum) {
    return tap(std::forward<Src>(src), [&sum](const value_t<Src>& x) { sum.add(x); });
}

//! Stage for `src | tap_checksum(sum)`.
inline auto tap_checksum(checksum& sum) {
    return make_stage(
        [&sum](auto&& src) { return tap_checksum(std::forward<decltype(src)>(src), sum); });
}

}  // namespace emflow
