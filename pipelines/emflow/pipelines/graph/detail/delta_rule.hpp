// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/delta_rule.hpp: PMOD's merge/unmerge rule (Yesil et al., SC
// 2019, Figures 3 and 4) for the bucket width of delta-stepping on a bulk-parallel queue.
//
// PMOD's priority groups are p >> lmf; here a round's bulk is the group [min, min + 2^lmf).
// Its events map onto rounds: a dequeue is a round; a *synchronizing* dequeue (PMOD: a thread
// found no local work) is a round whose bulk is too small to keep the threads busy or to amortize
// a pop (fewer than min_bulk items); enqueues are the pushes, with the range [minB, maxB] of
// their priorities. mergeCheck: if the share of small rounds exceeds freq_small, and the pushes
// per group, pushes / ((maxB >> lmf) - (minB >> lmf)), are fewer than min_density, lmf grows by
// log2(min_density / fill), unless the useless work is too high already. unmergeCheck: once
// more than max_pops expansions were made since the last change (PMOD: dequeues from one group)
// and the useless work among them -- the share of expansions of a vertex that was expanded
// before (its earlier expansion wasted) -- exceeds max_useless, lmf shrinks by
// log2(min_groups / groups) (at least 1). After a change every counter restarts, as in PMOD.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace emflow::pipelines::graph::detail {

//! The thresholds of the rule.
struct delta_rule_params {
    std::uint64_t min_bulk = 1024;     //!< a smaller bulk is a "synchronizing" round
    double freq_small = 0.25;          //!< PMOD's Freq_global
    std::uint64_t min_density = 1024;  //!< PMOD's MinDensity: pushes per group wanted
    std::uint64_t max_pops = 4096;     //!< PMOD's MaxPops: expansions before unmerging is judged
    std::uint64_t min_groups = 16;     //!< PMOD's Min_queues
    double max_useless = 0.1;          //!< useless work tolerated before unmerging
    int max_lmf = 40;                  //!< Δ at most 2^max_lmf
    int max_merge_step = 1;            //!< lmf grows by at most this per merge
};

//! The adaptive lmf (Δ = 2^lmf), or a fixed one.
class delta_rule {
public:
    //! Starts at lmf; fixed: never changes.
    delta_rule(int lmf, bool fixed, delta_rule_params p = {}) : lmf_(lmf), fixed_(fixed), p_(p) {}
    //! log2 Δ.
    int lmf() const { return lmf_; }
    //! Δ.
    std::uint64_t delta() const { return std::uint64_t(1) << lmf_; }
    //! Accounts one round: its bulk size (after stale items were dropped), its pushes (with
    //! their priority range), its expansions and how many of them repeated an earlier one; then
    //! applies mergeCheck and, if lmf did not change, unmergeCheck.
    void after_round(std::uint64_t bulk, std::uint64_t pushes, std::uint64_t min_prio,
                     std::uint64_t max_prio, std::uint64_t expanded, std::uint64_t repeated) {
        ++rounds_;
        if (bulk < p_.min_bulk) ++small_;
        pushes_ += pushes;
        if (pushes) min_b_ = std::min(min_b_, min_prio), max_b_ = std::max(max_b_, max_prio);
        expanded_ += expanded;
        repeated_ += repeated;
        if (fixed_) return;
        const int before = lmf_;
        merge_check();
        if (lmf_ == before) unmerge_check();
        if (lmf_ != before) reset();
    }

private:
    std::uint64_t groups() const {
        if (max_b_ < min_b_) return 1;
        return std::max<std::uint64_t>(1, (max_b_ >> lmf_) - (min_b_ >> lmf_));
    }
    void merge_check() {
        if (double(small_) / double(rounds_) <= p_.freq_small || pushes_ == 0) return;
        if (useless() > p_.max_useless) return;            // merging would add to the waste
        if ((max_b_ >> lmf_) == (min_b_ >> lmf_)) return;  // one group already: nothing to merge
        double fill = double(pushes_) / double(groups());
        if (fill >= double(p_.min_density)) return;
        // Cautiously (PMOD): the first rounds of a search are small whatever Δ is, and a jump
        // by the full log2(min_density / fill) there overshoots by many powers of two.
        int step = std::clamp(int(std::log2(double(p_.min_density) / fill)), 1, p_.max_merge_step);
        lmf_ = std::min(p_.max_lmf, lmf_ + step);
    }
    double useless() const { return expanded_ ? double(repeated_) / double(expanded_) : 0.0; }
    void unmerge_check() {
        if (expanded_ <= p_.max_pops || lmf_ == 0) return;
        if (useless() <= p_.max_useless) return;
        std::uint64_t g = groups();
        int step = g < p_.min_groups ? std::max(1, int(std::log2(double(p_.min_groups) / g))) : 1;
        lmf_ = std::max(0, lmf_ - step);
    }
    void reset() {
        rounds_ = small_ = pushes_ = expanded_ = repeated_ = 0;
        min_b_ = UINT64_MAX;
        max_b_ = 0;
    }

    int lmf_;
    bool fixed_;
    delta_rule_params p_;
    std::uint64_t rounds_ = 0, small_ = 0, pushes_ = 0, expanded_ = 0, repeated_ = 0;
    std::uint64_t min_b_ = UINT64_MAX, max_b_ = 0;
};

}  // namespace emflow::pipelines::graph::detail
