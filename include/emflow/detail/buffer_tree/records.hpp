// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/records.hpp: the records a buffer tree stores: time-stamped requests
// in its buffers, (key, value) elements in its leaves, and their orders.
#pragma once

#include <cstdint>
#include <type_traits>

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
