// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/items.hpp: the benchmark's item types, key sequences and the comparators
// each competitor needs (all of them order items by key, smallest key first).
#pragma once

#include <cstdint>
#include <emflow/hash.hpp>
#include <limits>
#include <ostream>

namespace pq_bench {

//! Plain 64-bit key: the paper's 8-byte item.
struct item_8 {
    std::uint64_t key;  //!< the priority
};

//! Key plus a 16-byte payload derived from the key: the paper's 24-byte item.
struct item_24 {
    std::uint64_t key;         //!< the priority
    std::uint64_t payload[2];  //!< a function of key, checked when the item is popped
};

//! Prints the key (STXXL's debug messages print items).
inline std::ostream& operator<<(std::ostream& out, const item_8& it) { return out << it.key; }
inline std::ostream& operator<<(std::ostream& out, const item_24& it) { return out << it.key; }

//! A cheap, well-mixing bijection on 64-bit words (splitmix64's output for state x).
inline std::uint64_t mix64(std::uint64_t x) { return emflow::splitmix64(x); }

//! Builds an item of type T with the given key (and its key-derived payload).
template <class T>
T make_item(std::uint64_t key);

template <>
inline item_8 make_item<item_8>(std::uint64_t key) {
    return item_8{key};
}

template <>
inline item_24 make_item<item_24>(std::uint64_t key) {
    return item_24{key, {mix64(key), ~key}};
}

//! True if the item's payload is the one make_item() gave it.
inline bool payload_intact(const item_8&) { return true; }
inline bool payload_intact(const item_24& it) {
    return it.payload[0] == mix64(it.key) && it.payload[1] == ~it.key;
}

//! Keys avoid 0 and the top half so that the comparators' sentinels never equal a real key.
constexpr std::uint64_t min_key = 1;
constexpr std::uint64_t max_key = std::uint64_t(1) << 63;

//! The i-th pushed key of an experiment: ascending (1, 2, 3, ...) or uniformly random.
struct key_sequence {
    bool random;         //!< uniformly random keys instead of ascending ones
    std::uint64_t seed;  //!< seed of the random keys

    //! Key number i; a pure function of i, so threads can generate disjoint ranges.
    std::uint64_t operator()(std::uint64_t i) const {
        return random ? (mix64(seed ^ mix64(i)) >> 1) + min_key : i + min_key;
    }
};

//! Min-order comparator for stxxl::priority_queue: "smaller" means larger key, so its top()
//! is the smallest key; min_value() is a sentinel beyond every real key.
template <class T>
struct stxxl_pq_order {
    bool operator()(const T& a, const T& b) const { return a.key > b.key; }
    T min_value() const { return make_item<T>(std::numeric_limits<std::uint64_t>::max()); }
};

//! Ascending comparator for stxxl::sorter, with the sentinels it needs.
template <class T>
struct stxxl_sorter_order {
    bool operator()(const T& a, const T& b) const { return a.key < b.key; }
    T min_value() const { return make_item<T>(0); }
    T max_value() const { return make_item<T>(std::numeric_limits<std::uint64_t>::max()); }
};

//! Min-order comparator for emflow's PPQ (std::priority_queue convention: top() is the greatest
//! under the comparator, so "greater key" makes it a min-queue).
template <class T>
struct ppq_order {
    bool operator()(const T& a, const T& b) const { return a.key > b.key; }
};

}  // namespace pq_bench
