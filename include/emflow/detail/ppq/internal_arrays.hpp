// SPDX-License-Identifier: BSL-1.0
// emflow/detail/ppq/internal_arrays.hpp: sorted arrays in RAM, labelled by level, with a tournament
// tree over their heads for single-item extraction and level merges by parallel multiway merge.
#pragma once

#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/algorithm/tournament_tree.hpp>

#include <vector>

namespace emflow::detail::ppq {

template <class T, class Order>
class internal_arrays {
public:
    //! A sorted array; items before head are consumed.
    struct array {
        std::vector<T> items;  //!< sorted in pop order
        std::size_t head = 0;  //!< first unconsumed item
        unsigned level = 0;    //!< merge level
        //! Unconsumed items.
        std::size_t size() const { return items.size() - head; }
    };

    explicit internal_arrays(const Order& order) : order_(order), tree_(beats{this}) {}

    //! Adds a sorted array on level.
    void add(std::vector<T>&& items, unsigned level) {
        if (items.empty()) return;
        bytes_ += items.capacity() * sizeof(T);
        size_ += items.size();
        arrays_.push_back(array{std::move(items), 0, level});
        dirty_ = true;
    }
    //! Bytes held by all arrays.
    std::size_t bytes() const { return bytes_; }
    //! Unconsumed items in all arrays.
    std::size_t size() const { return size_; }
    //! Number of arrays (some may be empty until the next compaction).
    std::size_t count() const { return arrays_.size(); }
    //! The arrays.
    std::vector<array>& arrays() { return arrays_; }

    //! The array whose head pops first, or tournament_tree::none.
    std::uint32_t winner() {
        if (dirty_) rebuild();
        return tree_.winner();
    }
    //! Head of array i.
    const T& head(std::uint32_t i) const { return arrays_[i].items[arrays_[i].head]; }
    //! Removes the head of array i (the tree winner).
    void pop(std::uint32_t i) {
        array& a = arrays_[i];
        ++a.head;
        --size_;
        if (a.head == a.items.size()) release(a);
        tree_.replay(i);
    }
    //! Appends each array's unconsumed range to seqs (their owners to owners).
    void collect(std::vector<algorithm::sequence<T>>& seqs, std::vector<std::size_t>& owners) {
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            array& a = arrays_[i];
            if (a.size() == 0) continue;
            seqs.emplace_back(a.items.data() + a.head, a.items.data() + a.items.size());
            owners.push_back(i);
        }
    }
    //! Array owner's range now starts at new_head (after a merge consumed items from it).
    void consumed(std::size_t owner, const T* new_head) {
        array& a = arrays_[owner];
        std::size_t h = std::size_t(new_head - a.items.data());
        size_ -= h - a.head;
        a.head = h;
        if (a.head == a.items.size()) release(a);
        dirty_ = true;
    }
    //! Number of arrays on level.
    std::size_t on_level(unsigned level) const {
        std::size_t n = 0;
        for (auto& a : arrays_) n += a.size() && a.level == level;
        return n;
    }
    //! Unconsumed items on level.
    std::size_t items_on_level(unsigned level) const {
        std::size_t n = 0;
        for (auto& a : arrays_) n += a.level == level ? a.size() : 0;
        return n;
    }
    //! Highest level in use + 1.
    unsigned levels() const {
        unsigned l = 0;
        for (auto& a : arrays_) l = a.size() ? std::max(l, a.level + 1) : l;
        return l;
    }
    //! Merges all arrays on level into one on level + 1 (needs RAM for its items).
    void merge_level(unsigned level, algorithm::workers& w) {
        std::vector<algorithm::sequence<T>> seqs;
        std::vector<std::size_t> owners;
        std::size_t n = 0;
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            array& a = arrays_[i];
            if (a.size() == 0 || a.level != level) continue;
            seqs.emplace_back(a.items.data() + a.head, a.items.data() + a.items.size());
            owners.push_back(i);
            n += a.size();
        }
        std::vector<T> out(n);
        bytes_ += out.capacity() * sizeof(T);
        try {
            algorithm::multiway_merge(seqs, out.data(), n, order_, w);
        } catch (...) {
            bytes_ -= out.capacity() * sizeof(T);
            throw;
        }
        bytes_ -= out.capacity() * sizeof(T);
        for (std::size_t k = 0; k < owners.size(); ++k) consumed(owners[k], seqs[k].first);
        add(std::move(out), level + 1);
        compact();
    }
    //! Drops exhausted arrays.
    void compact() {
        std::size_t j = 0;
        for (std::size_t i = 0; i < arrays_.size(); ++i)
            if (arrays_[i].size()) {
                if (i != j) arrays_[j] = std::move(arrays_[i]);
                ++j;
            }
        if (j != arrays_.size()) {
            arrays_.resize(j);
            dirty_ = true;
        }
    }

private:
    struct beats {
        const internal_arrays* self;
        bool operator()(std::uint32_t a, std::uint32_t b) const {
            const array& x = self->arrays_[a];
            const array& y = self->arrays_[b];
            if (x.size() == 0) return false;
            if (y.size() == 0) return true;
            return self->order_(x.items[x.head], y.items[y.head]);
        }
    };
    void release(array& a) {
        bytes_ -= a.items.capacity() * sizeof(T);
        std::vector<T>().swap(a.items);
        a.head = 0;
    }
    void rebuild() {
        compact();
        tree_.rebuild(arrays_.size());
        dirty_ = false;
    }

    Order order_;
    std::vector<array> arrays_;
    algorithm::tournament_tree<beats> tree_;
    bool dirty_ = false;
    std::size_t bytes_ = 0;
    std::size_t size_ = 0;
};

}  // namespace emflow::detail::ppq
