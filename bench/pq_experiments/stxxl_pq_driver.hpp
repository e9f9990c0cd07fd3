// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/stxxl_pq_driver.hpp: drives stxxl::priority_queue through the
// experiments. Its memory budget is a compile-time parameter (PRIORITY_QUEUE_GENERATOR), so
// each budget is instantiated in its own translation unit (stxxl_pq_instance.cpp.in) and
// registered here; run_stxxl_pq() picks the instantiated budget nearest to --memory.
#pragma once

#include "experiments.hpp"
#include "items.hpp"

#include <stxxl/priority_queue>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pq_bench {

//! A compiled-in stxxl::priority_queue configuration.
struct stxxl_pq_instance {
    std::uint64_t budget_bytes;           //!< total RAM: half for the queue, a quarter per pool
    unsigned item_bytes;                  //!< 8 or 24
    std::uint64_t max_items;              //!< the generator's MaxItems (queue capacity)
    run_result (*run)(const options& o);  //!< runs an experiment on it
};

//! All instantiated configurations (filled by static registration).
std::vector<stxxl_pq_instance>& stxxl_pq_instances();

//! Adds an instantiated configuration; returns true (for a static initializer).
bool register_stxxl_pq_instance(const stxxl_pq_instance& instance);

//! stxxl::priority_queue as a min-queue over T with a budget of BudgetBytes: as in the paper,
//! half of it for the queue's internal structures, a quarter each for read and write pools.
template <class T, std::uint64_t BudgetBytes>
class stxxl_pq_driver {
public:
    //! Capacity: up to 64 times the budget in items (the generator's MaxItems).
    static constexpr std::uint64_t max_items = 64 * BudgetBytes / sizeof(T);

    using queue_type =
        typename stxxl::PRIORITY_QUEUE_GENERATOR<T, stxxl_pq_order<T>, BudgetBytes / 2,
                                                 max_items / 1024>::result;

    stxxl_pq_driver() : queue_(std::make_unique<queue_type>(BudgetBytes / 4, BudgetBytes / 4)) {}

    //! Pushes keys(first) .. keys(first + count - 1) one by one.
    void push_keys(const key_sequence& keys, std::uint64_t first, std::uint64_t count,
                   key_checksum& pushed) {
        for (std::uint64_t i = first; i < first + count; ++i) {
            const std::uint64_t key = keys(i);
            queue_->push(make_item<T>(key));
            pushed.add(key);
        }
    }

    //! Pops count items one by one (top, pop).
    void pop_items(std::uint64_t count, pop_verifier& verifier) {
        for (std::uint64_t i = 0; i < count; ++i) {
            if (queue_->empty()) throw verification_error("stxxl_pq ran empty early");
            verifier.accept(queue_->top());
            queue_->pop();
        }
    }

    //! Items in the queue.
    std::uint64_t size() const { return queue_->size(); }

private:
    std::unique_ptr<queue_type> queue_;  // large: keep it off the stack
};

//! Runs o on the configuration <T, BudgetBytes>.
template <class T, std::uint64_t BudgetBytes>
run_result run_stxxl_pq_instance(const options& o) {
    using driver = stxxl_pq_driver<T, BudgetBytes>;
    if (o.items() > driver::max_items)
        throw std::invalid_argument(
            "stxxl_pq: " + std::to_string(o.items()) + " items exceed the capacity " +
            std::to_string(driver::max_items) + " compiled in for this budget");
    driver d;
    run_result r = run_experiment(o, d);
    r.memory_used_bytes = BudgetBytes;
    return r;
}

}  // namespace pq_bench
