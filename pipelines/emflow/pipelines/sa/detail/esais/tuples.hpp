// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/tuples.hpp: the tuples of eSAIS (Bingmann, Fischer & Osipov,
// ALENEX 2013) on a byte text. A *part* is a maximal stretch of L-type (or S-type) positions; it is
// induced as a chain from the position right of it (its *anchor*: an S* position, the end of the
// text, or the first position of an L-part). The chain's tuples carry the part's next runs of
// equal bytes (nearest first), so the text is never read at random; a part with more runs than a
// window holds (or a long run after the first) gets *continuation* records, joined by position
// when the chain reaches them.
// The Index fields come first; every struct is trivially copyable (sorters, the queue, disks).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace emflow::pipelines::sa::detail::esais {

//! Largest value of an index type (sorter sentinels).
template <class T>
constexpr T top() {
    return std::numeric_limits<T>::max();
}

//! Runs in a window.
inline constexpr unsigned window_runs = 3;
//! Longest run a window holds beyond its first: those runs' lengths take 4 bits each, so that a
//! window takes two bytes more than its first run's length (a queue item of 4-byte indexes 16
//! bytes). Longer runs are rare (0.13% of source code's), each starts a continuation.
inline constexpr unsigned short_run = 14;
//! A length slot's value for a run the window holds by its byte alone: the chain waits for its
//! continuation at the run before it, but knows the bucket its next suffix goes to.
inline constexpr unsigned in_continuation = 15;

//! The next runs of a part to the left of a position, nearest first; run 0 is the current one
//! (its length counts the positions still to induce, the current one included). Runs 1 and 2
//! hold a length of at most short_run, 0 past the part's end, or in_continuation (then no run
//! follows in the window).
template <class Index>
struct window {
    Index len;                     //!< run 0's length
    std::uint8_t next_lens;        //!< run 1's length (low 4 bits) and run 2's
    std::uint8_t ch[window_runs];  //!< run bytes

    //! Run k's length slot (k = 1, 2).
    unsigned next_len(unsigned k) const { return (next_lens >> (4 * (k - 1))) & 15u; }
    //! Sets run k's length slot (k = 1, 2; the slot is 0 before).
    void set_next_len(unsigned k, unsigned v) { next_lens |= std::uint8_t(v << (4 * (k - 1))); }
    //! The window once run 0 is done: run 1 (held in full) becomes run 0.
    window shifted() const {
        window w{};
        w.len = Index(next_len(1));
        w.next_lens = std::uint8_t(next_lens >> 4);
        w.ch[0] = ch[1];
        w.ch[1] = ch[2];
        return w;
    }
};
static_assert(window_runs == 3, "two runs of 4 bits after the first");

//! What a pass computes besides the suffixes' order.
enum class pass_mode {
    plain,  //!< nothing (the suffix array)
    named,  //!< names, equal for equal prefixes (sorting the S*-substrings)
    lcp     //!< the LCP of each suffix with the one before it (the LCP array)
};

//! A suffix to place in a pass: position pos, in bucket w.ch[0], induced by the suffix of rank
//! rank (the pass's numbering). Named items carry a value: the inducer's name when sorting the
//! S*-substrings, the suffix's LCP with the one placed before it in its bucket when inducing
//! the LCP array.
template <class Index, bool Named>
struct item;

template <class Index>
struct item<Index, false> {
    Index rank;       //!< the inducer's rank
    Index pos;        //!< the position
    window<Index> w;  //!< the part from pos leftwards
};

template <class Index>
struct item<Index, true> {
    Index rank;       //!< the inducer's rank
    Index pos;        //!< the position
    Index name;       //!< the inducer's name (equal prefixes, equal names), or the LCP
    window<Index> w;  //!< the part from pos leftwards
};

//! How many suffixes of each byte (bucket) each pass places and seeds, counted by the scan.
struct bucket_counts {
    std::array<std::uint64_t, 256> l_type{};  //!< L-type suffixes (placed in the L-pass)
    std::array<std::uint64_t, 256> s_type{};  //!< S-type suffixes (placed in the S-pass)
    std::array<std::uint64_t, 256> sstar{};   //!< S* suffixes (the L-pass's seeds)
    std::array<std::uint64_t, 256> lstar{};   //!< L-part starts after an S-part (the S-pass's)
};

//! The ranks of a pass whose seeds are all pushed before it starts: bucket c's placed suffixes
//! take the ranks [first[c], first[c] + placed[c]), its seeds the ones up to the next bucket's
//! first (ranks rise in the pass's order of buckets).
struct bucket_ranks {
    std::array<std::uint64_t, 256> first{};   //!< rank of the bucket's first placed suffix
    std::array<std::uint64_t, 256> placed{};  //!< suffixes the pass places in the bucket
    std::array<std::uint64_t, 256> seeds{};   //!< the bucket's seeds' first rank

    //! The ranks of the L-pass (Descending false: after the text's end, rank 0) or the S-pass.
    static bucket_ranks of(const bucket_counts& n, bool descending) {
        bucket_ranks r;
        std::uint64_t next = descending ? 0 : 1;
        for (unsigned k = 0; k < 256; ++k) {
            const unsigned c = descending ? 255 - k : k;
            r.first[c] = next;
            r.placed[c] = descending ? n.s_type[c] : n.l_type[c];
            r.seeds[c] = next + r.placed[c];
            next = r.seeds[c] + (descending ? n.lstar[c] : n.sstar[c]);
        }
        return r;
    }
};

//! A pass's queue order: by bucket (ascending in the L-pass, descending in the S-pass), then by
//! the inducer's rank. As std::priority_queue compares: true if a pops after b.
template <class Item, bool Descending>
struct pop_later {
    //! Bucket key: the order buckets are processed in.
    static unsigned bucket(std::uint8_t c) { return Descending ? 255u - c : c; }
    //! a pops after b
    bool operator()(const Item& a, const Item& b) const {
        const unsigned ka = bucket(a.w.ch[0]), kb = bucket(b.w.ch[0]);
        if (ka != kb) return ka > kb;
        return std::uint64_t(a.rank) > std::uint64_t(b.rank);
    }
    //! Pops after every item (STXXL's priority_queue sentinel).
    Item min_value() const {
        Item t{};
        t.w.ch[0] = Descending ? 0 : 255;
        t.rank = top<decltype(t.rank)>();
        return t;
    }
};

//! A chain's start: the anchor at pos (byte ch, of rank order in the sorted stream) induces pos-1
//! with the window w of the part left of it. name: the anchor's name (sorting substrings), or
//! the LCP the pass needs for it (inducing the LCP array: an S* suffix's with the S* suffix
//! before it, an L-part start's with the next one in its bucket in the L-pass's order).
template <class Index>
struct seed {
    Index order;      //!< sort key: rank of the anchor (or its position)
    Index pos;        //!< the anchor
    Index name;       //!< the anchor's name (sorting substrings), or an LCP (see above)
    Index run;        //!< the length of the run of ch from pos rightwards
    window<Index> w;  //!< the part left of the anchor
    std::uint8_t ch;  //!< T[pos]
};

//! The window a chain needs after the run in bucket ch that starts at pos (pos-1 is the next).
template <class Index>
struct continuation {
    Index pos;        //!< leftmost position of the finished run
    window<Index> w;  //!< the runs from pos-1 leftwards
    std::uint8_t ch;  //!< the finished run's byte (the bucket the join happens in)
};

//! A chain tuple waiting for its continuation: pos finished its run with rank rank.
template <class Index>
struct waiting {
    Index pos;   //!< leftmost position of the finished run
    Index rank;  //!< its rank
    Index name;  //!< its name (sorting substrings), or its successor's LCP (LCP array)
};

//! A chain's end reached in a pass: position pos got rank (and name). Inducing the LCP array,
//! name is the LCP with the chain end before it in its bucket (0 for the bucket's first).
template <class Index>
struct chain_end {
    Index rank;  //!< its rank in the pass
    Index pos;   //!< the position
    Index name;  //!< its name (sorting substrings), or its LCP (see above)
};

//! Seeds by order.
template <class Index>
struct by_order {
    using T = seed<Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.order) < std::uint64_t(b.order);
    }
    //! Below every seed.
    T min_value() const { return T{}; }
    //! Above every seed.
    T max_value() const {
        T t{};
        t.order = top<Index>();
        return t;
    }
};

//! Seeds by order, descending (the S-pass takes the L-pass's ranks backwards).
template <class Index>
struct by_order_descending {
    using T = seed<Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.order) > std::uint64_t(b.order);
    }
    //! Below every seed.
    T min_value() const {
        T t{};
        t.order = top<Index>();
        return t;
    }
    //! Above every seed.
    T max_value() const { return T{}; }
};

//! A value (name or rank) of the S* suffix at position pos.
template <class Index>
struct pos_value {
    Index pos;    //!< the S* position
    Index value;  //!< its name or rank
};

//! Continuations by bucket (in a pass's order), then position.
template <class Index, bool Descending>
struct by_bucket_position {
    using T = continuation<Index>;
    static unsigned bucket(std::uint8_t c) { return Descending ? 255u - c : c; }
    //! a < b
    bool operator()(const T& a, const T& b) const {
        if (a.ch != b.ch) return bucket(a.ch) < bucket(b.ch);
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
    //! Below every record.
    T min_value() const {
        T t{};
        t.ch = Descending ? 255 : 0;
        return t;
    }
    //! Above every record.
    T max_value() const {
        T t{};
        t.ch = Descending ? 0 : 255;
        t.pos = top<Index>();
        return t;
    }
};

//! Anything with a pos field, by position.
template <class T>
struct by_pos {
    using Index = decltype(T::pos);
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
    //! Below every tuple.
    T min_value() const { return T{}; }
    //! Above every tuple.
    T max_value() const {
        T t{};
        t.pos = top<Index>();
        return t;
    }
};

static_assert(std::is_trivially_copyable_v<item<std::uint32_t, true>>);
static_assert(sizeof(item<std::uint32_t, false>) == 16);
static_assert(sizeof(item<std::uint32_t, true>) == 20);

}  // namespace emflow::pipelines::sa::detail::esais
