// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/records.hpp: the records a buffer tree stores: time-stamped requests
// in its buffers, (key, value) elements in its leaves, and their orders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace emflow::detail::buffer_tree {

//! What a request does when it reaches a leaf.
enum class op_kind : std::uint8_t { insert, erase, lookup };

//! A request on its way down the tree; time orders requests on one key.
template <class Key, class Value>
struct request {
    Key key;
    Value value;
    std::uint64_t time;
    op_kind op;
};

//! A stored (key, value) pair of a leaf; equal keys are kept in insertion order.
template <class Key, class Value>
struct element {
    Key key;
    Value value;
};

//! The value type of a tree that only sorts (tree sort): its requests and leaves hold bare keys.
struct sort_only {};

//! An insert of a tree that only sorts: the key alone, on disk.
template <class Key>
struct request<Key, sort_only> {
    Key key;
    static constexpr sort_only value{};
    static constexpr std::uint64_t time = 0;
    static constexpr op_kind op = op_kind::insert;
};

//! A leaf element of a tree that only sorts.
template <class Key>
struct element<Key, sort_only> {
    Key key;
    static constexpr sort_only value{};
};

//! Whether requests with values of Value are stored without their time stamp (stored_request).
template <class Value>
inline constexpr bool compact_requests_v = std::is_trivially_copyable_v<Value> &&
                                           sizeof(Value) >= sizeof(std::uint64_t);

//! A request as a buffer holds it on disk. A buffer keeps each key's requests in time order by
//! position (each push is sorted by (key, time), pushes arrive oldest first), so a loaded request
//! gets its position as its time and only a look-up's ticket must be kept: where Value has room
//! for it, in the value's slot, which a look-up does not use (24 bytes instead of 32 for 8-byte
//! keys and values). Otherwise the whole request is stored.
template <class Key, class Value, bool Compact = compact_requests_v<Value>>
struct stored_request : request<Key, Value> {
    //! r as stored.
    static stored_request store(const request<Key, Value>& r) { return {r}; }
    //! Appends the requests of p[0, n) to out, as they are (one copy of the block).
    static void append(const stored_request* p, std::size_t n,
                       std::vector<request<Key, Value>>& out) {
        out.insert(out.end(), p, p + n);
    }
};

//! A request stored without its time stamp (see the primary template).
template <class Key, class Value>
struct stored_request<Key, Value, true> {
    Key key;
    Value value;  //!< a look-up's: its ticket (make_request)
    op_kind op;

    //! r as stored.
    static stored_request store(const request<Key, Value>& r) { return {r.key, r.value, r.op}; }
    //! Appends the requests of p[0, n) to out, each timed by its position in out.
    static void append(const stored_request* p, std::size_t n,
                       std::vector<request<Key, Value>>& out) {
        for (std::size_t i = 0; i < n; ++i)
            out.push_back({p[i].key, p[i].value, out.size(), p[i].op});
    }
};

//! A request of op at time t; a look-up's ticket t is kept in its value's slot where
//! stored_request drops the time.
template <class Key, class Value>
request<Key, Value> make_request(const Key& key, const Value& value, std::uint64_t t, op_kind op) {
    request<Key, Value> r{key, value, t, op};
    if constexpr (compact_requests_v<Value>)
        if (op == op_kind::lookup) std::memcpy(static_cast<void*>(&r.value), &t, sizeof t);
    return r;
}

//! The ticket of a look-up made by make_request.
template <class Key, class Value>
std::uint64_t ticket_of(const request<Key, Value>& r) {
    if constexpr (compact_requests_v<Value>) {
        std::uint64_t t;
        std::memcpy(&t, static_cast<const void*>(&r.value), sizeof t);
        return t;
    } else {
        return r.time;
    }
}

//! The element a request inserts.
template <class Key, class Value>
element<Key, Value> element_of(const request<Key, Value>& r) {
    if constexpr (std::is_same_v<Value, sort_only>)
        return {r.key};
    else
        return {r.key, r.value};
}

//! Orders requests by key, then by time (older first).
template <class Key, class Value, class Cmp>
struct request_order {
    Cmp cmp;
    bool operator()(const request<Key, Value>& x, const request<Key, Value>& y) const {
        if (cmp(x.key, y.key)) return true;
        if (cmp(y.key, x.key)) return false;
        return x.time < y.time;
    }
};

//! True if a and b are equivalent under cmp.
template <class Key, class Cmp>
bool same_key(const Cmp& cmp, const Key& a, const Key& b) {
    return !cmp(a, b) && !cmp(b, a);
}

//! Keys and values are stored on disk as bytes: like STXXL's containers, a buffer tree takes
//! types that are trivially destructible and copyable by construction (std::pair included).
template <class T>
inline constexpr bool storable_v = std::is_trivially_destructible_v<T>&&
    std::is_trivially_copy_constructible_v<T>&& std::is_default_constructible_v<T>;

}  // namespace emflow::detail::buffer_tree
