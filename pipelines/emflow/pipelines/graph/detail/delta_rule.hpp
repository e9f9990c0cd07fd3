// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/delta_rule.hpp: PMOD's merge/unmerge rule (Yesil et al., SC
// 2019, Figures 3 and 4) for the bucket width of delta-stepping on a bulk-parallel queue.
//
// PMOD's priority groups are p >> lmf; here a round's bulk is the group [min, min + 2^lmf).
// Its events map onto rounds: a round's bulk is the dequeues from one group, relaxed in phases
// (the bulk, then the frontiers of the relaxations that stayed before the limit), each phase a
// *synchronizing* dequeue (the threads meet); enqueues are the pushes into the queue, with the
// range [minB, maxB] of their priorities. mergeCheck: if the phases are too frequent for their
// dequeues (mean per phase since the last change under min_bulk, PMOD's nSyncDeqs / nDeqs >
// Freq_global) and the pushes per group, pushes / ((maxB >> lmf) - (minB >> lmf)), are fewer
// than min_density, lmf grows (by at most max_merge_step a round: the first rounds are small
// whatever Δ is, and a jump by the full log2(min_density / fill) there overshoots).
// unmergeCheck: if a round dequeued more than max_pops items per phase from its group and its
// pushes span fewer than min_groups groups, lmf shrinks by log2(min_groups / groups) (PMOD: the
// recent priorities fill too few queues, so tasks of distant priorities share one). One addition
// for a bulk-synchronous queue, where every phase also pays a barrier: the waste, relaxations
// that repeat an earlier expansion's edges, in a window of its own (window_rounds and at least
// min_relaxed relaxations: tiny first rounds extend it). A merge needs it judged and at most
// max_useless (a merge made before the waste shows overshoots: a road graph's first rounds are
// tiny whatever Δ is); above max_useless, a small round (at most max_pops per phase) unmerges by
// one and holds merges for window_rounds (merging back at once made road oscillate between a
// clean Δ and a wasteful one every other round; kron's waste comes in huge early rounds, where
// the barrier is amortized and unmerging would only add rounds). After a change the other
// counters restart, as in PMOD. Since the light phases the default min_bulk and min_density are
// large (search_options.hpp): the waste is what stops the merges.
#pragma once

#include <emflow/pipelines/graph/search_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace emflow::pipelines::graph::detail {

//! What one round did, as the rule sees it.
struct round_events {
    std::uint64_t bulk = 0;      //!< vertices expanded (stale items skipped)
    std::uint64_t phases = 1;    //!< synchronizations: the bulk, then each frontier in turn
    std::uint64_t pushes = 0;    //!< items enqueued (not those kept in the round's frontiers)
    std::uint64_t min_prio = 0;  //!< smallest priority enqueued (if pushes)
    std::uint64_t max_prio = 0;  //!< largest priority enqueued (if pushes)
    std::uint64_t relaxed = 0;   //!< edges relaxed
    std::uint64_t wasted = 0;    //!< of those, repeats of an earlier expansion's edges
};

//! The adaptive lmf (Δ = 2^lmf), or a fixed one.
class delta_rule {
public:
    //! Starts at lmf; fixed: never changes.
    delta_rule(int lmf, bool fixed, adaptive_params p = {}) : lmf_(lmf), fixed_(fixed), p_(p) {}
    //! log2 Δ.
    int lmf() const { return lmf_; }
    //! Δ.
    std::uint64_t delta() const { return std::uint64_t(1) << lmf_; }
    //! Accounts one round, then applies mergeCheck and, if lmf did not change, unmergeCheck.
    void after_round(const round_events& e) {
        ++rounds_;
        hold_ -= hold_ > 0;
        syncs_ += e.phases;
        popped_ += e.bulk;
        pushes_ += e.pushes;
        if (e.pushes) min_b_ = std::min(min_b_, e.min_prio), max_b_ = std::max(max_b_, e.max_prio);
        relaxed_ += e.relaxed;
        wasted_ += e.wasted;
        if (fixed_) return;
        const int before = lmf_;
        merge_check();
        if (lmf_ == before) unmerge_check(e);
        if (lmf_ != before) reset();
        if (rounds_ >= p_.window_rounds) reset();
        if (++waste_rounds_ >= p_.window_rounds && relaxed_ >= p_.min_relaxed)
            waste_rounds_ = relaxed_ = wasted_ = 0;
    }

private:
    static std::uint64_t groups(std::uint64_t lo, std::uint64_t hi, int lmf) {
        return hi < lo ? 1 : std::max<std::uint64_t>(1, (hi >> lmf) - (lo >> lmf));
    }
    bool judged_clean() const {
        return relaxed_ >= p_.min_relaxed && double(wasted_) <= p_.max_useless * double(relaxed_);
    }
    bool wasteful() const {
        return relaxed_ >= p_.min_relaxed && double(wasted_) > p_.max_useless * double(relaxed_);
    }
    void merge_check() {
        // merging needs the recent waste judged low: a merge made before it shows overshoots
        if (hold_ > 0) return;  // just unmerged for waste: merging back would repeat it
        if (popped_ >= p_.min_bulk * syncs_ || pushes_ == 0 || !judged_clean()) return;
        if ((max_b_ >> lmf_) == (min_b_ >> lmf_)) return;  // PMOD's Num_queues = 0: one group
        const double fill = double(pushes_) / double(groups(min_b_, max_b_, lmf_));
        if (fill >= double(p_.min_density)) return;
        const int step =
            std::clamp(int(std::log2(double(p_.min_density) / fill)), 1, p_.max_merge_step);
        lmf_ = std::min(p_.max_lmf, lmf_ + step);
    }
    void unmerge_check(const round_events& e) {
        if (lmf_ == 0) return;
        const std::uint64_t per_sync = e.bulk / std::max<std::uint64_t>(1, e.phases);
        if (per_sync <= p_.max_pops && wasteful()) {  // small rounds: their waste is the cost
            lmf_ -= 1;
            waste_rounds_ = relaxed_ = wasted_ = 0;
            hold_ = p_.window_rounds;
            return;
        }
        if (per_sync <= p_.max_pops || e.pushes == 0) return;
        const std::uint64_t g = groups(e.min_prio, e.max_prio, lmf_);
        if (g >= p_.min_groups) return;
        lmf_ = std::max(0, lmf_ - std::max(1, int(std::log2(double(p_.min_groups) / double(g)))));
    }
    void reset() {
        rounds_ = syncs_ = popped_ = pushes_ = 0;
        min_b_ = UINT64_MAX;
        max_b_ = 0;
    }

    int lmf_;
    bool fixed_;
    adaptive_params p_;
    std::uint64_t rounds_ = 0, syncs_ = 0, popped_ = 0, pushes_ = 0;
    std::uint64_t waste_rounds_ = 0, relaxed_ = 0, wasted_ = 0;  // a window of their own
    std::uint64_t min_b_ = UINT64_MAX, max_b_ = 0;
    std::uint64_t hold_ = 0;  //!< rounds left without merging
};

}  // namespace emflow::pipelines::graph::detail
