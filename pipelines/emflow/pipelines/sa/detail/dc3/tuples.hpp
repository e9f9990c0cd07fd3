// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/tuples.hpp: the tuples DC3 sorts, and their orders. Sym is the
// text's symbol type (std::uint16_t for bytes shifted to 1..256 at level 0, Index for the names of
// the recursion's texts; 0 is past the end), Index the position and rank type. The structs are
// plain (trivially copyable, the sorter's block quicksort applies) with the Index fields first, so
// 4-byte indices give 12- and 16-byte tuples. Every order is total on the tuples that occur
// (positions and ranks are unique), and every real tuple is strictly less than max_value(): its
// position or rank is below Index's maximum (max_text_length leaves it free).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace emflow::pipelines::sa::detail::dc3 {

//! Largest value of an index or symbol type (the sorters' sentinel).
template <class T>
constexpr T top() {
    return std::numeric_limits<T>::max();
}

//! A sample position's three symbols, to be sorted and named.
template <class Sym, class Index>
struct triple {
    Index pos;  //!< the sample position i (i mod 3 != 0)
    Sym c[3];   //!< T[i], T[i+1], T[i+2]
};

//! By the symbols, then the position.
template <class Sym, class Index>
struct by_symbols {
    using T = triple<Sym, Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        for (int k = 0; k < 3; ++k)
            if (a.c[k] != b.c[k]) return a.c[k] < b.c[k];
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
    //! Below every tuple.
    T min_value() const { return {Index(0), {0, 0, 0}}; }
    //! Above every tuple.
    T max_value() const { return {top<Index>(), {top<Sym>(), top<Sym>(), top<Sym>()}}; }
};

//! A value of the reduced text (a name or a rank) at a reduced position: the 1-mod-3 sample
//! positions i at i div 3, then the 2-mod-3 ones at n0 + i div 3.
template <class Index>
struct keyed {
    Index key;    //!< reduced position
    Index value;  //!< name or rank
};

//! By reduced position.
template <class Index>
struct by_key {
    using T = keyed<Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.key) < std::uint64_t(b.key);
    }
    //! Below every tuple.
    T min_value() const { return {Index(0), Index(0)}; }
    //! Above every tuple.
    T max_value() const { return {top<Index>(), top<Index>()}; }
};

//! Class 0 (i mod 3 == 0): compared with class 1 by (T[i], r[i+1]), with class 2 by
//! (T[i], T[i+1], r[i+2]); sorted by (T[i], r[i+1]), unique since r[i+1] is.
template <class Sym, class Index>
struct class0 {
    Index r1, r2, pos;  //!< r[i+1], r[i+2], i
    Sym t0, t1;         //!< T[i], T[i+1]
};

//! Class 1 (i mod 3 == 1): sorted by r[i]; (T[i], r[i+1]) compares it with class 0.
template <class Sym, class Index>
struct class1 {
    Index r0, r1, pos;  //!< r[i], r[i+1], i
    Sym t0;             //!< T[i]
};

//! Class 2 (i mod 3 == 2): sorted by r[i]; (T[i], T[i+1], r[i+2]) compares it with class 0.
template <class Sym, class Index>
struct class2 {
    Index r0, r2, pos;  //!< r[i], r[i+2], i
    Sym t0, t1;         //!< T[i], T[i+1]
};

//! Class 0's order.
template <class Sym, class Index>
struct by_symbol_rank {
    using T = class0<Sym, Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return a.t0 < b.t0 || (a.t0 == b.t0 && std::uint64_t(a.r1) < std::uint64_t(b.r1));
    }
    //! Below every tuple.
    T min_value() const { return {Index(0), Index(0), Index(0), Sym(0), Sym(0)}; }
    //! Above every tuple.
    T max_value() const {
        return {top<Index>(), top<Index>(), top<Index>(), top<Sym>(), top<Sym>()};
    }
};

//! Classes 1 and 2's order: by the sample rank r[i].
template <class T>
struct by_rank {
    using Index = decltype(T::r0);
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.r0) < std::uint64_t(b.r0);
    }
    //! Below every tuple.
    T min_value() const {
        T t{};
        return t;
    }
    //! Above every tuple.
    T max_value() const {
        T t{};
        t.r0 = top<Index>();
        return t;
    }
};

//! The DC3 comparison of a class-0 suffix with a class-1 suffix: a < b.
template <class Sym, class Index>
bool less(const class0<Sym, Index>& a, const class1<Sym, Index>& b) {
    return a.t0 < b.t0 || (a.t0 == b.t0 && std::uint64_t(a.r1) < std::uint64_t(b.r1));
}

//! The DC3 comparison of a class-0 suffix with a class-2 suffix: a < b.
template <class Sym, class Index>
bool less(const class0<Sym, Index>& a, const class2<Sym, Index>& b) {
    if (a.t0 != b.t0) return a.t0 < b.t0;
    if (a.t1 != b.t1) return a.t1 < b.t1;
    return std::uint64_t(a.r2) < std::uint64_t(b.r2);
}

static_assert(std::is_trivially_copyable_v<class0<std::uint16_t, std::uint32_t>>);
static_assert(sizeof(class0<std::uint16_t, std::uint32_t>) == 16);
static_assert(sizeof(triple<std::uint16_t, std::uint32_t>) == 12);

}  // namespace emflow::pipelines::sa::detail::dc3
