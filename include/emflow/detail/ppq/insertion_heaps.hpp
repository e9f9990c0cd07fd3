// SPDX-License-Identifier: BSL-1.0
// emflow/detail/ppq/insertion_heaps.hpp: one insertion heap per thread, and the tournament tree
// over their tops for single-item extraction.
//
// Outside bulk phases every heap is a binary heap whose front is the next item in pop order
// (std::push_heap with Compare). In a bulk phase bulk_push only appends; heap order is restored
// (or the heap sorted into an internal array) at the end of the phase.
#pragma once

#include <emflow/algorithm/tournament_tree.hpp>

#include <algorithm>
#include <vector>

namespace emflow::detail::ppq {

template <class T, class Compare>
class insertion_heaps {
public:
    //! A heap on its own cache line, so that threads appending to neighbours do not collide.
    struct alignas(64) heap {
        std::vector<T> items;  //!< heap-ordered, or appended to in a bulk phase
    };

    insertion_heaps(unsigned count, const Compare& cmp)
        : cmp_(cmp), heaps_(count), tree_(beats{this}) {
        tree_.rebuild(count);
    }

    //! Number of heaps.
    unsigned count() const { return unsigned(heaps_.size()); }
    //! Heap i.
    heap& operator[](unsigned i) { return heaps_[i]; }
    //! Items in all heaps.
    std::size_t size() const {
        std::size_t n = 0;
        for (auto& h : heaps_) n += h.items.size();
        return n;
    }

    //! Pushes x into heap i (heap order kept) and updates the tree.
    void push(unsigned i, const T& x) {
        auto& v = heaps_[i].items;
        v.push_back(x);
        std::push_heap(v.begin(), v.end(), cmp_);
        tree_.replay(i);
    }
    //! Restores heap order of heap i after appends and updates the tree.
    void heapify(unsigned i) {
        auto& v = heaps_[i].items;
        std::make_heap(v.begin(), v.end(), cmp_);
        tree_.replay(i);
    }
    //! The heap whose front pops first, or none.
    std::uint32_t winner() const { return tree_.winner(); }
    //! The front of heap i (must not be empty).
    const T& front(unsigned i) const { return heaps_[i].items.front(); }
    //! Removes the front of heap i.
    void pop(unsigned i) {
        auto& v = heaps_[i].items;
        std::pop_heap(v.begin(), v.end(), cmp_);
        v.pop_back();
        tree_.replay(i);
    }
    //! Heap i was emptied or replaced: updates the tree.
    void changed(unsigned i) { tree_.replay(i); }

private:
    struct beats {
        const insertion_heaps* self;
        bool operator()(std::uint32_t a, std::uint32_t b) const {
            auto& x = self->heaps_[a].items;
            auto& y = self->heaps_[b].items;
            if (x.empty()) return false;
            if (y.empty()) return true;
            return self->cmp_(y.front(), x.front());
        }
    };

    Compare cmp_;
    std::vector<heap> heaps_;
    algorithm::tournament_tree<beats> tree_;
};

}  // namespace emflow::detail::ppq
