// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/stxxl_sorter.cpp: drives stxxl::sorter through push-*-pop: push all
// items, sort, read them back in order. Its budget is --memory exactly.
#include "experiments.hpp"
#include "implementations.hpp"
#include "items.hpp"

#include <stxxl/sorter>

namespace pq_bench {
namespace {

template <class T>
class stxxl_sorter_driver {
public:
    explicit stxxl_sorter_driver(std::uint64_t budget_bytes)
        : sorter_(stxxl_sorter_order<T>(), budget_bytes) {}

    //! Pushes keys(first) .. keys(first + count - 1); only before the first pop.
    void push_keys(const key_sequence& keys, std::uint64_t first, std::uint64_t count,
                   key_checksum& pushed) {
        for (std::uint64_t i = first; i < first + count; ++i) {
            const std::uint64_t key = keys(i);
            sorter_.push(make_item<T>(key));
            pushed.add(key);
        }
    }

    //! Sorts on the first call, then reads count items in order.
    void pop_items(std::uint64_t count, pop_verifier& verifier) {
        if (!sorted_) {
            sorter_.sort();
            sorted_ = true;
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            if (sorter_.empty()) throw verification_error("stxxl_sorter ran empty early");
            verifier.accept(*sorter_);
            ++sorter_;
        }
    }

    //! Items pushed (before sorting) or not yet read (after).
    std::uint64_t size() const { return sorter_.size(); }

private:
    stxxl::sorter<T, stxxl_sorter_order<T>> sorter_;
    bool sorted_ = false;
};

template <class T>
run_result run_with(const options& o) {
    stxxl_sorter_driver<T> d(o.memory_bytes);
    run_result r = run_experiment(o, d);
    r.memory_used_bytes = o.memory_bytes;
    r.memory_note = "as requested";
    return r;
}

}  // namespace

run_result run_stxxl_sorter(const options& o) {
    return o.item_bytes == 8 ? run_with<item_8>(o) : run_with<item_24>(o);
}

}  // namespace pq_bench
