// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/doubling/tuples.hpp: the items prefix doubling sorts and their orders.
//
// Names are ranks (1..n) of length-h prefixes; 0 stands for "past the end of the text", so
// shorter suffixes sort first. Every order is total on real items (it ends with a unique
// position or key below n), so the sorters' max_value() sentinels (all ones) are never real.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace emflow::pipelines::sa::detail::doubling {

//! Characters packed into the first names: byte + 1 (0: past the end) in 9 bits each, 7 of
//! them in 63 bits, so the first round starts at h = 7 instead of 1 (3 doubling rounds fewer).
inline constexpr unsigned packed_chars = 7;
//! Bits per packed character.
inline constexpr unsigned char_bits = 9;

//! The first sort's item: a position and its first packed_chars characters.
template <class Index>
struct char_tuple {
    std::uint64_t chars;  //!< T[i..i+7) packed, T[i] in the highest bits
    Index i;              //!< the position
};

//! Order of char_tuple: by characters, then position.
template <class Index>
struct by_chars {
    using T = char_tuple<Index>;  //!< item type
    //! a < b.
    bool operator()(const T& a, const T& b) const {
        return a.chars < b.chars || (a.chars == b.chars && a.i < b.i);
    }
    //! Below every item.
    T min_value() const { return {0, Index(0)}; }
    //! Above every item (packed characters use 63 bits).
    T max_value() const { return {~std::uint64_t(0), std::numeric_limits<Index>::max()}; }
};

//! A round's item: the names of positions i, i+h, ..., i+(W-1)h, and i.
template <class Index, unsigned W>
struct name_tuple {
    Index name[W];  //!< names of the length-h prefixes at i + k*h (0: past the end)
    Index i;        //!< the position
};

//! Order of name_tuple: lexicographically by names (the length-W*h prefix), then position.
template <class Index, unsigned W>
struct by_names {
    using T = name_tuple<Index, W>;  //!< item type
    //! a < b.
    bool operator()(const T& a, const T& b) const {
        for (unsigned k = 0; k < W; ++k) {
            std::uint64_t x = a.name[k], y = b.name[k];
            if (x != y) return x < y;
        }
        return std::uint64_t(a.i) < std::uint64_t(b.i);
    }
    //! Below every item.
    T min_value() const { return T{}; }
    //! Above every item (names and positions are at most n <= max - 2).
    T max_value() const {
        T t;
        for (unsigned k = 0; k < W; ++k) t.name[k] = std::numeric_limits<Index>::max();
        t.i = std::numeric_limits<Index>::max();
        return t;
    }
};

//! Between rounds: a position's name, keyed by the position's number in residue order.
template <class Index>
struct keyed_name {
    Index key;            //!< residue_order::key of the position
    Index name;           //!< its name
    std::uint8_t unique;  //!< 1: the name is unique (it is the suffix's rank + 1)
};

//! Order of keyed_name by key (unique, below n): the next round's input order.
template <class Index>
struct by_key {
    using T = keyed_name<Index>;  //!< item type
    //! a < b.
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.key) < std::uint64_t(b.key);
    }
    //! Below every item.
    T min_value() const { return {Index(0), Index(0), 0}; }
    //! Above every item.
    T max_value() const { return {std::numeric_limits<Index>::max(), Index(0), 0}; }
};

//! A finished position: its final name, the rank of its suffix + 1.
template <class Index>
struct ranked_position {
    Index rank;  //!< the unique name
    Index i;     //!< the position
};

//! Order of ranked_position by rank (unique, 1..n): the suffix array's order.
template <class Index>
struct by_rank {
    using T = ranked_position<Index>;  //!< item type
    //! a < b.
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.rank) < std::uint64_t(b.rank);
    }
    //! Below every item.
    T min_value() const { return {Index(0), Index(0)}; }
    //! Above every item.
    T max_value() const { return {std::numeric_limits<Index>::max(), Index(0)}; }
};

//! The positions 0..n-1 ordered by (i mod h, i div h), so that i, i+h, i+2h, ... are adjacent,
//! numbered 0..n-1 in that order. Sorting by this number instead of the pair keeps the key one
//! index wide and the comparison free of divisions.
class residue_order {
public:
    //! Order of n positions for distance h >= 1.
    residue_order(std::uint64_t n, std::uint64_t h) : h_(h), m_(n / h), r_(n % h) {}

    //! The number of position i: residues below i mod h come first, r_ of them with m_ + 1
    //! positions, the others with m_.
    std::uint64_t key(std::uint64_t i) const {
        std::uint64_t r = i % h_;
        return r * m_ + (r < r_ ? r : r_) + i / h_;
    }
    //! The position numbered key.
    std::uint64_t position(std::uint64_t key) const {
        std::uint64_t long_part = r_ * (m_ + 1);
        if (key < long_part) return key % (m_ + 1) * h_ + key / (m_ + 1);
        key -= long_part;
        return key % m_ * h_ + r_ + key / m_;
    }
    //! The number of positions with residue r.
    std::uint64_t chain_length(std::uint64_t r) const { return r < r_ ? m_ + 1 : m_; }
    //! The distance h.
    std::uint64_t h() const { return h_; }

private:
    std::uint64_t h_, m_, r_;
};

}  // namespace emflow::pipelines::sa::detail::doubling
