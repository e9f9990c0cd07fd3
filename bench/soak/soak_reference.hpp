// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_reference.hpp: the items of ppq_soak, the queue's order and its std::multiset
// model, whose checks throw soak::mismatch (tests/ppq/ppq_reference.hpp is Catch2-bound).
#pragma once

#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace soak {

//! A 16-byte item: a key, and a serial that makes every item distinct (so a lost, duplicated or
//! corrupted item is seen even among equal keys).
struct item {
    std::uint64_t key;
    std::uint64_t serial;
};

//! The queue's Compare: a min-queue on the key only, so items with equal keys are equivalent and
//! may come out in any order.
struct key_greater {
    bool operator()(const item& a, const item& b) const { return a.key > b.key; }
};

//! The model's order: pop order (ascending key), ties broken by serial for an exact lookup.
struct model_less {
    bool operator()(const item& a, const item& b) const {
        return a.key != b.key ? a.key < b.key : a.serial < b.serial;
    }
};

//! A wrong result of the queue.
struct mismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline std::string describe(const item& x) {
    std::ostringstream s;
    s << "{key " << x.key << ", serial " << x.serial << "}";
    return s.str();
}

//! The multiset of the items the queue must hold.
class model {
public:
    void insert(const item& x) { items_.insert(x); }
    template <class It>
    void insert(It first, It last) {
        for (; first != last; ++first) items_.insert(*first);
    }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    //! The least key in the model (it must not be empty).
    std::uint64_t min_key() const { return items_.begin()->key; }
    //! True if some item comes strictly before limit in pop order.
    bool any_before(const item& limit) const { return !empty() && min_key() < limit.key; }

    //! x is what the queue shows next: it must have the least key and be in the model.
    void check_next(const item& x, const char* what) const {
        if (empty()) throw mismatch(std::string(what) + " gave " + describe(x) + ", model empty");
        if (x.key != min_key())
            throw mismatch(std::string(what) + " gave " + describe(x) + ", expected key " +
                           std::to_string(min_key()));
        if (items_.find(x) == items_.end())
            throw mismatch(std::string(what) + " gave " + describe(x) +
                           ", an item never pushed or extracted before");
    }
    //! x was extracted: checks it as check_next and removes it.
    void take_next(const item& x, const char* what) {
        check_next(x, what);
        items_.erase(items_.find(x));
    }

private:
    std::multiset<item, model_less> items_;
};

}  // namespace soak
