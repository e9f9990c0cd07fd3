// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/limit_rules.hpp: how to choose the limit of the next bulk_pop_limit.
//
// bulk_pop_limit(out, L) extracts every item before the limit L, and the bulk-parallel queue is
// efficient only for large bulks, yet it cannot know how many items lie before L without a
// costly multisequence selection (SEA 2015 paper, conclusions). A limit rule answers that
// question online: it proposes the limit of the next bulk from the current top item and learns
// from the sizes of the bulks it produced.
//
// Rules work in a key space: a window of `width` keys starting at the top item's key, so the
// limit is key(top) + width. fixed_window keeps one width; adaptive_window adapts it after PMOD's
// adaptive priority merging (Yesil et al., SC 2019, section 4): the width (PMOD's merging factor)
// is always a power of two; when bulks are too sparse (fewer than target/2 items) the width is
// multiplied by the power of two closest to the missing factor (merge), when bulks are too large
// (more than 2*target items, or cut off by a maximum size) it is divided likewise (unmerge).
// The band [target/2, 2*target] spans a factor of 4, so for any steady density some power-of-two
// width lands inside it and the rule settles instead of oscillating.
//
// Which target: memory_target_bulk(), derived from the queue's memory budget, no tuning. A round
// of the time-forward loop (emflow/pipelines/tfp/time_forward.hpp) costs about c0 + c1*B for a bulk
// of B items: c0 is its fixed part (sorting the insertion heaps into new internal arrays, a
// multiway merge over all arrays that needs setting up whatever its length, handing the cores from
// the queue's OpenMP team to the caller's oneTBB tasks and back, the processing function's own
// per-round work), c1 the per-item part (merging, pushing, processing, I/O). On the DAG demo
// (bench/tfp/tfp_dag_limits: 2 cores, 16-byte items, 32 MiB queue) c0 is about 1 ms and c1 about
// 85 ns: a round's fixed part is worth some 12k items, so bulks of 2^16 items still lose ~15% to
// it and bulks of 2^19 about 2%, while the per-item part hardly grew with the bulk (the run time
// fell monotonically with the bulk size up to the largest bulks tried). Bulks should thus be as
// large as RAM allows, and RAM is what bounds them: the caller holds the bulk (up to 2*target
// items in the band) outside the queue, and pushes back about as many items in a steady state
// (every item popped was pushed once). memory_target_bulk = memory_bytes / (4 * item size) makes
// those two together at most the queue's own budget at the top of the band. A density jump can
// exceed the band for one round; time_forward_loop's max_bulk (or, in emflow/pipelines/tfp, the
// max_window node cap) limits that.
//
//   emflow::pipelines::tfp::adaptive_window window(emflow::pipelines::tfp::memory_target_bulk(pq));
//   // memory_bytes / 64 for 16 B auto rule = emflow::pipelines::tfp::make_key_limit_rule(window,
//   [](const msg& m) { return m.target; },
//                                           [](std::uint64_t k) { return msg{k, 0}; });
//   T limit = rule.next_limit(pq.top());  ... rule.observe(bulk.size(), truncated);
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace emflow::pipelines::tfp {

//! The target bulk of an adaptive_window over a queue with a budget of memory_bytes and items of
//! item_bytes bytes: memory_bytes / (4 item_bytes), at least 2 (see the header comment: a bulk at
//! the top of the band plus the items it pushes back fit in the budget).
inline std::size_t memory_target_bulk(std::size_t memory_bytes, std::size_t item_bytes) {
    if (item_bytes == 0)
        throw std::invalid_argument(
            "emflow::pipelines::tfp::memory_target_bulk: item_bytes must be >= 1");
    return std::max<std::size_t>(2, memory_bytes / 4 / item_bytes);
}

//! The target bulk of an adaptive_window over `queue` (a parallel_priority_queue): from its
//! memory budget and item size, as above.
template <typename Queue>
std::size_t memory_target_bulk(const Queue& queue) {
    return memory_target_bulk(queue.layout().memory_bytes, sizeof(typename Queue::value_type));
}

//! A window of constant width: the naive or hand-tuned fixed limit.
class fixed_window {
public:
    //! A window of `width` keys (at least 1).
    explicit fixed_window(std::uint64_t width) : width_(width) {
        if (width == 0)
            throw std::invalid_argument("emflow::pipelines::tfp::fixed_window: width must be >= 1");
    }
    //! The width of the next window.
    std::uint64_t width() const { return width_; }
    //! A fixed window learns nothing.
    void observe(std::size_t /*bulk_size*/, bool /*truncated*/ = false) {}

private:
    std::uint64_t width_;
};

//! A power-of-two window that adapts so bulks stay within [target/2, 2*target] items.
class adaptive_window {
public:
    //! Bulks should hold about `target_bulk` items; widths stay within
    //! [2^min_log_width, 2^max_log_width]; the first window is 2^initial_log_width keys wide.
    explicit adaptive_window(std::size_t target_bulk, unsigned initial_log_width = 0,
                             unsigned min_log_width = 0, unsigned max_log_width = 62)
        : target_(target_bulk), log_width_(initial_log_width), min_log_(min_log_width),
          max_log_(max_log_width) {
        if (target_bulk < 2)
            throw std::invalid_argument(
                "emflow::pipelines::tfp::adaptive_window: target_bulk must be >= 2");
        if (min_log_width > max_log_width || max_log_width > 62)
            throw std::invalid_argument(
                "emflow::pipelines::tfp::adaptive_window: need min_log_width <= max_log_width <= "
                "62");
        log_width_ = clamp(log_width_);
    }

    //! The width of the next window: 2^log_width().
    std::uint64_t width() const { return std::uint64_t(1) << log_width_; }
    //! Base-2 logarithm of the width (PMOD's lmf).
    unsigned log_width() const { return log_width_; }
    //! The bulk size the rule aims at.
    std::size_t target() const { return target_; }

    //! Learns from a bulk of `bulk_size` items produced by a window of width(); `truncated`
    //! says that a maximum bulk size cut the bulk short (so the window held even more).
    void observe(std::size_t bulk_size, bool truncated = false) {
        const std::size_t low = target_ / 2, high = 2 * target_;
        if (truncated || bulk_size > high) {
            // Unmerge: shrink by the power of two nearest to bulk/target, at least halve.
            log_width_ = clamp(int(log_width_) - std::max(1, nearest_log2(bulk_size, target_)));
        } else if (bulk_size < low) {
            // Merge: an empty window says nothing about density, so just double.
            const int step = bulk_size == 0 ? 1 : std::max(1, nearest_log2(target_, bulk_size));
            log_width_ = clamp(int(log_width_) + step);
        }
    }

private:
    //! round(log2(num/den)) for num >= den > 0.
    static int nearest_log2(std::size_t num, std::size_t den) {
        int k = 0;
        // Compare num/den with 2^(k+0.5), i.e. num^2 with 2^(2k+1) den^2, without overflow.
        while (k < 62 &&
               double(num) >= double(den) * double(std::uint64_t(1) << k) * 1.4142135623730951)
            ++k;
        return k;
    }
    unsigned clamp(int log_width) const {
        if (log_width < int(min_log_)) return min_log_;
        if (log_width > int(max_log_)) return max_log_;
        return unsigned(log_width);
    }

    std::size_t target_;
    unsigned log_width_, min_log_, max_log_;
};

//! Turns a window (fixed_window, adaptive_window or alike) into limit items: the limit of the
//! next bulk is limit_of(key_of(top) + width), saturating at the largest key.
template <typename Window, typename KeyOf, typename LimitOf>
class key_limit_rule {
public:
    //! Reads keys with key_of(const T&) -> uint64_t, makes limits with limit_of(uint64_t) -> T.
    key_limit_rule(Window& window, KeyOf key_of, LimitOf limit_of)
        : window_(window), key_of_(std::move(key_of)), limit_of_(std::move(limit_of)) {}

    //! The limit of the next bulk, given the item at the top of the queue.
    template <typename T>
    T next_limit(const T& top) const {
        const std::uint64_t key = key_of_(top), width = window_.width();
        const std::uint64_t max_key = std::numeric_limits<std::uint64_t>::max();
        return limit_of_(key > max_key - width ? max_key : key + width);
    }
    //! Passes the size of the bulk just extracted to the window.
    void observe(std::size_t bulk_size, bool truncated = false) {
        window_.observe(bulk_size, truncated);
    }
    //! The window.
    const Window& window() const { return window_; }

private:
    Window& window_;
    KeyOf key_of_;
    LimitOf limit_of_;
};

//! Builds a key_limit_rule without spelling its type.
template <typename Window, typename KeyOf, typename LimitOf>
key_limit_rule<Window, KeyOf, LimitOf> make_key_limit_rule(Window& window, KeyOf key_of,
                                                           LimitOf limit_of) {
    return {window, std::move(key_of), std::move(limit_of)};
}

}  // namespace emflow::pipelines::tfp
