// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/time_forward.hpp: the bulk-parallel time-forward processing loop over a
// priority queue (SEA 2015 paper, Listings 1 and 2, made parallel with bulk_pop_limit as its
// section 2 says).
//
// Each round extracts a bulk: all items before a limit proposed by a limit rule
// (emflow/pipelines/tfp/limit_rules.hpp), or simply the next k items (next_k); then calls the
// processing function with the bulk inside a bulk-push phase, so the function may process the items
// in parallel (tbb::parallel_for, OpenMP, a pipeline segment) and push the items it generates from
// any of those threads; then ends the phase. It repeats until the queue is empty, or until the
// limit rule's done(top) says so (A*: nothing left can improve the target). The phase is sized
// by the last round's fan-out (items pushed per item extracted). Graph search
// (emflow/pipelines/graph) runs its delta-stepping rounds on this loop too.
//
//   emflow::pipelines::tfp::adaptive_window window(emflow::pipelines::tfp::memory_target_bulk(pq));
//   auto rule = emflow::pipelines::tfp::make_key_limit_rule(window, key_of, limit_of);
//   emflow::pipelines::tfp::time_forward_loop(pq, rule, [](const auto& bulk) {
//       tbb::parallel_for(std::size_t(0), bulk.items().size(), [&](std::size_t i) {
//           bulk.push(successor_of(bulk.items()[i]));     // any thread
//       });
//   });
//
// Errors: an exception from the processing function (on any thread: tbb::parallel_for carries it
// over), from the limit rule or from the queue (a throwing comparator) ends the loop and reaches
// the caller; the current bulk-push phase is closed first, so the queue stays usable and holds
// every item pushed so far except the bulks already extracted.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <emflow/timing.hpp>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::tfp {

//! A rule that extracts the next k items per round (Listing 1) instead of items before a limit.
struct next_k {
    std::size_t k;  //!< items per bulk (at least 1)
};

//! What a time_forward_loop did.
struct time_forward_stats {
    std::uint64_t bulks = 0;                     //!< rounds (bulks extracted and processed)
    std::uint64_t items = 0;                     //!< items extracted in all bulks
    std::uint64_t truncated_bulks = 0;           //!< bulks cut short by max_bulk before their limit
    std::size_t min_bulk = 0;                    //!< smallest bulk
    std::size_t max_bulk = 0;                    //!< largest bulk
    std::uint64_t bulk_log2_histogram[65] = {};  //!< bulks with floor(log2(size)) = i (size 0: 0)
    double pop_seconds = 0;                      //!< time in bulk_pop / bulk_pop_limit
    double process_seconds = 0;                  //!< time in the processing function
    double push_end_seconds = 0;                 //!< time in bulk_push_end

    //! Mean bulk size.
    double mean_bulk() const { return bulks ? double(items) / double(bulks) : 0.0; }
};

//! The bulk handed to the processing function of a time_forward_loop.
template <typename Queue>
class time_forward_bulk {
public:
    using value_type = typename Queue::value_type;  //!< the queue's item type

    //! The extracted items, in pop order; the processing function may reorder, drop or change
    //! them (the loop does not read them again).
    std::vector<value_type>& items() const { return items_; }
    //! The limit the bulk was extracted with, or nullptr for a next_k bulk.
    const value_type* limit() const { return limit_; }
    //! True if max_bulk cut the bulk short of its limit: the items before the last item's key
    //! are all there, items with the last item's key may still be in the queue.
    bool truncated() const { return truncated_; }
    //! Pushes an item into the queue; callable concurrently from any thread or oneTBB task.
    void push(const value_type& x) const { queue_.bulk_push(x); }

    //! (used by time_forward_loop)
    time_forward_bulk(Queue& q, std::vector<value_type>& items, const value_type* limit,
                      bool truncated)
        : queue_(q), items_(items), limit_(limit), truncated_(truncated) {}

private:
    Queue& queue_;
    std::vector<value_type>& items_;
    const value_type* limit_;
    bool truncated_;
};

namespace detail {

template <typename Rule>
inline constexpr bool is_next_k_v = std::is_same_v<std::decay_t<Rule>, next_k>;

//! Whether Rule has bool done(const T& top): the loop ends before extracting top's bulk.
template <typename Rule, typename T, typename = void>
struct has_done : std::false_type {};
template <typename Rule, typename T>
struct has_done<Rule, T,
                std::void_t<decltype(bool(std::declval<Rule&>().done(std::declval<const T&>())))>>
    : std::true_type {};

inline unsigned floor_log2(std::size_t x) {
    unsigned l = 0;
    while (x >>= 1) ++l;
    return l;
}

}  // namespace detail

//! Runs the time-forward loop until `queue` is empty. `rule` is next_k{k} or a limit rule with
//! `value_type next_limit(const value_type& top)` and `void observe(size_t bulk, bool truncated)`,
//! and optionally `bool done(const value_type& top)`, which ends the loop before the next bulk;
//! `process(const time_forward_bulk<Queue>&)` processes a bulk. Limit bulks hold at most
//! max_bulk items (the rest before the limit comes in the next round). Throws std::logic_error
//! if a limit rule proposes a limit that leaves the top item out (the loop could not progress).
template <typename Queue, typename Rule, typename Process>
time_forward_stats time_forward_loop(Queue& queue, Rule&& rule, Process&& process,
                                     std::size_t max_bulk = SIZE_MAX) {
    using T = typename Queue::value_type;
    using clock = std::chrono::steady_clock;
    if (max_bulk == 0)
        throw std::invalid_argument(
            "emflow::pipelines::tfp::time_forward_loop: max_bulk must be >= 1");
    if constexpr (detail::is_next_k_v<Rule>)
        if (rule.k == 0)
            throw std::invalid_argument(
                "emflow::pipelines::tfp::time_forward_loop: next_k needs k >= 1");

    time_forward_stats stats;
    std::vector<T> bulk;
    double fan_out = 1;  // items pushed per item extracted, in the last round
    while (!queue.empty()) {
        if constexpr (detail::has_done<std::decay_t<Rule>, T>::value)
            if (rule.done(queue.top())) break;
        bulk.clear();
        auto t0 = clock::now();
        T limit{};
        const T* limit_ptr = nullptr;
        bool truncated = false;
        if constexpr (detail::is_next_k_v<Rule>) {
            queue.bulk_pop(bulk, rule.k);
        } else {
            limit = rule.next_limit(queue.top());
            limit_ptr = &limit;
            truncated = !queue.bulk_pop_limit(bulk, limit, max_bulk);
            stats.truncated_bulks += truncated;
            rule.observe(bulk.size(), truncated);
            if (bulk.empty())
                throw std::logic_error(
                    "emflow::pipelines::tfp::time_forward_loop: the limit rule's limit is not "
                    "after the top item");
        }
        stats.pop_seconds += seconds_since(t0);

        stats.min_bulk = stats.bulks ? std::min(stats.min_bulk, bulk.size()) : bulk.size();
        stats.max_bulk = std::max(stats.max_bulk, bulk.size());
        ++stats.bulks;
        stats.items += bulk.size();
        ++stats.bulk_log2_histogram[detail::floor_log2(bulk.size())];

        t0 = clock::now();
        const std::size_t extracted = bulk.size(), before = queue.size();
        queue.bulk_push_begin(std::size_t(fan_out * double(extracted)));
        try {
            process(time_forward_bulk<Queue>(queue, bulk, limit_ptr, truncated));
        } catch (...) {
            try {
                queue.bulk_push_end();  // leave the queue usable; the first error wins
            } catch (...) {
            }
            throw;
        }
        stats.process_seconds += seconds_since(t0);
        t0 = clock::now();
        queue.bulk_push_end();
        stats.push_end_seconds += seconds_since(t0);
        fan_out = double(queue.size() - before) / double(std::max<std::size_t>(1, extracted));
    }
    return stats;
}

}  // namespace emflow::pipelines::tfp
