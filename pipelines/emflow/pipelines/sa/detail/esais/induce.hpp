// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/induce.hpp: one inducing pass of eSAIS on a priority queue. The
// L-pass visits the buckets (bytes) upwards: in bucket c it places the L-type suffixes, which
// the queue holds keyed by (c, rank of the inducer), then the bucket's sorted seeds (S* suffixes);
// every placed suffix gets the next rank and induces its left neighbour if that one belongs to
// the same part. The S-pass is its mirror image (buckets downwards, S-type suffixes, the seeds
// are the L-type suffixes right of an S-part, placed in the L-pass's order backwards).
//
// Bulks (the PPQ paper's section 5): all items of bucket c induced from other buckets are in
// the queue before c starts, one bulk (repetition round 0), popped with bulk_pop_limit. Items of
// c induced from c itself (a run c...c) form round 1, and so on; a round's items keep their
// order, so a round whose successors fit in RAM is carried over in RAM (long runs of one byte
// cost no queue operations), the rest goes through the queue, limited by the round's first rank.
// A bulk's successors go into the queue as one run, ordered by a counting sort (push_successors).
// A long bulk is processed by all threads (process_parallel; not with the LCP array, whose range
// minima run item by item): a suffix's rank is the bulk's first rank plus its place in the bulk,
// its name (sorting the substrings) the names before it plus the name changes up to it, so each
// thread counts and then writes the successors of a slice of the bulk straight to their places
// in the run (a counting sort by slice and bucket), while one thread places the suffixes in order.
// Chains that run out of window wait in a sorter and are joined with their continuations by
// position when their bucket ends (they induce into later buckets only).
//
// LCP (pass_mode::lcp; Fischer, "Inducing the LCP-Array", WADS 2011): every suffix placed gets
// its LCP with the one placed before it (0 for a bucket's first), which the range minima of
// lcp_minima.hpp turn into the LCP of each induced suffix with the one induced into its bucket
// before it; the item carries it through the queue (a chain out of window knows the bucket of its
// next suffix, so it gets its LCP before it waits). A bucket's first seed follows its induced
// suffixes (the L-pass: L-type c^k a..., then S* c^m b..., a < c < b) or starts it: its LCP is
// min(k, m), k the bucket's number of repetition rounds (its last induced suffix's run of c) and
// m the seed's run. Later seeds bring theirs: an S* suffix's from sstar_lcp.hpp, an L-part
// start's from the L-pass (its chain end's LCP with the chain end before it in the bucket, which
// the S-pass, going backwards, needs at the seed after it).
#pragma once

#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/pipelines/sa/detail/esais/lcp_minima.hpp>
#include <emflow/pipelines/sa/detail/esais/position_runs.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! What a pass may hold in RAM besides its queue.
struct pass_limits {
    std::size_t bulk_items = 1 << 20;   //!< items popped at once
    std::size_t carry_items = 1 << 20;  //!< a round's successors kept in RAM
    //! The chains waiting for continuations: a run's buffer, and the merge of a bucket's runs
    //! (at least external_runs' merge_minimum: in source code, many chains of a bucket wait at
    //! once behind the runs of spaces that indent its lines)
    std::size_t waiting_bytes = 16 << 20;
    std::size_t parallel_items = 1 << 14;  //!< bulks from this size are processed in parallel
    unsigned threads = 0;                  //!< threads that process a bulk; 0: the cores
};

//! A reader of no seeds, for a pass whose seeds all come through push_ranked_seeds's feed.
template <class Index>
struct no_seeds {
    seed<Index> none{};  //!< never read
    //! Always true.
    bool empty() const { return true; }
    //! Never called (empty).
    const seed<Index>& operator*() const { return none; }
    //! Never called (empty).
    no_seeds& operator++() { return *this; }
};

//! One inducing pass. Place(pos, value, c) is called for every suffix of the pass's type in the
//! pass's order (c: its bucket; value: its name or LCP by Mode, else 0); End(chain_end, c) for
//! every chain's last suffix (rank and name or LCP in the pass; c: its bucket).
//! Seeds come in one of two ways: sorted in the pass's order, placed bucket by bucket after the
//! bucket's induced suffixes (run() alone; the LCP array needs them in order), or ranked by
//! bucket_ranks, in any order, all pushed before the pass (push_ranked_seeds(); their inducing
//! then needs no sort of the seeds).
template <class Index, pass_mode Mode, bool Descending, class Queue, class Seeds, class Conts,
          class Place, class End>
class induce_pass {
    static constexpr bool Named = Mode == pass_mode::named;
    static constexpr bool Lcp = Mode == pass_mode::lcp;
    using item_t = item<Index, Mode != pass_mode::plain>;
    using order = pop_later<item_t, Descending>;
    using waiting_t = waiting<Index>;

public:
    //! A pass over queue (empty), taking the seeds in order from seeds and continuations from
    //! conts (readers: empty(), operator*, operator++); names start above first_name.
    induce_pass(Queue& queue, Seeds& seeds, Conts& conts, Place place, End end,
                const pass_limits& lim, std::uint64_t first_name)
        : q_(queue), seeds_(seeds), conts_(conts), place_(place), end_(end), lim_(lim),
          names_(first_name), waiting_(lim.waiting_bytes / sizeof(waiting_t)),
          workers_(lim.threads ? lim.threads : std::max(1u, std::thread::hardware_concurrency())) {}

    //! Pushes the successors of every seed, whose order fields hold their ranks by ranks (named:
    //! their name fields their names); the pass's placed suffixes then take their ranks from
    //! ranks too. Before run().
    void push_ranked_seeds(const bucket_ranks& ranks) {
        push_ranked_seeds(ranks, [this](auto push) {
            for (; !seeds_.empty(); ++seeds_) push(*seeds_);
        });
    }
    //! As push_ranked_seeds(ranks), the seeds given by feed(push), which calls push(seed) for
    //! each (the pass's own reader is left alone).
    template <class Feed>
    void push_ranked_seeds(const bucket_ranks& ranks, Feed feed) {
        ranks_ = &ranks;
        hint_ = lim_.bulk_items;
        try {
            feed([this](const seed<Index>& s) {
                item_t y{};
                y.rank = s.order;
                y.pos = Index(std::uint64_t(s.pos) - 1);
                if constexpr (Named) y.name = s.name;
                y.w = s.w;
                push_seed_successor(y, s.ch);
            });
            push_seed_run();
        } catch (...) {
            end_bulk_quietly();
            throw;
        }
        end_bulk();
    }

    //! Runs the pass; start (if given) is processed first, with rank 0. Returns the last name.
    std::uint64_t run(const seed<Index>* start) {
        if (start) process_seeds({*start}, true);
        for (;;) {
            const bool q = !q_.empty(), s = !seeds_.empty();
            if (!q && !s) break;
            unsigned b = ~0u;
            if (q) b = order::bucket(q_.top().w.ch[0]);
            if (s) b = std::min(b, order::bucket((*seeds_).ch));
            bucket(std::uint8_t(Descending ? 255 - b : b));
        }
        if (!conts_.empty())
            throw std::logic_error("emflow: eSAIS pass ended with continuations left");
        return names_;
    }

    //! Each bucket's number of repetition rounds (the longest run of its byte its suffixes of
    //! the pass's type start with); after run().
    const std::array<std::uint64_t, 256>& rounds() const { return rounds_; }

private:
    void bucket(std::uint8_t c) {
        have_prev_ = false;
        carry_.clear();
        overflow_ = false;
        bucket_rounds_ = 0;
        have_end_ = false;
        end_min_ = no_lcp;
        seed_seen_ = false;
        if (ranks_) rank_ = ranks_->first[c];
        for (;;) {  // repetition rounds
            const std::uint64_t round_start = rank_;
            std::size_t done = 0;
            cur_.swap(carry_);
            carry_.clear();
            overflow_ = false;
            if (!cur_.empty()) {
                done += cur_.size();
                process(cur_);
            }
            item_t limit{};
            limit.rank = Index(round_start);
            limit.w.ch[0] = c;
            while (!q_.empty()) {
                const bool last = q_.bulk_pop_limit(bulk_, limit, lim_.bulk_items);
                if (bulk_.empty()) break;
                done += bulk_.size();
                process(bulk_);
                if (last) break;
            }
            if (done == 0) break;
            ++bucket_rounds_;
        }
        rounds_[c] = bucket_rounds_;
        if (ranks_ && rank_ != ranks_->seeds[c])
            throw std::logic_error("emflow: eSAIS pass placed " +
                                   std::to_string(rank_ - ranks_->first[c]) +
                                   " suffixes in bucket " + std::to_string(c) + ", " +
                                   std::to_string(ranks_->placed[c]) + " expected");
        // The bucket's seeds in chunks of a bulk: a bucket may hold a good part of the text's.
        while (!seeds_.empty() && (*seeds_).ch == c) {
            seed_chunk_.clear();
            while (seed_chunk_.size() < lim_.bulk_items && !seeds_.empty() && (*seeds_).ch == c) {
                seed_chunk_.push_back(*seeds_);
                ++seeds_;
            }
            process_seeds(seed_chunk_, false);
        }
        seed_named_ = false;
        join(c);
    }

    //! Places the items of one bulk (in order, all of one bucket) and induces their successors.
    void process(const std::vector<item_t>& items) {
        if constexpr (!Lcp && Queue::takes_sorted_runs) {
            if (items.size() >= lim_.parallel_items && workers_.threads() > 1)
                return process_parallel(items);
        }
        hint_ = items.size();
        try {
            for (const item_t& x : items) {
                const Index rank = Index(rank_++);
                Index name{};
                if constexpr (Named) {
                    if (!have_prev_ || x.name != prev_inducer_) {
                        prev_name_ = ++names_;
                        prev_inducer_ = x.name;
                        have_prev_ = true;
                    }
                    name = Index(prev_name_);
                }
                if constexpr (Lcp) {
                    name = x.name;
                    placed(rank, x.name);
                }
                place_(x.pos, name, x.w.ch[0]);
                advance(x, rank, name);
            }
        } catch (...) {
            end_bulk_quietly();
            throw;
        }
        end_bulk();
        push_successors();
    }

    //! Where the successor of a placed suffix goes.
    enum class next_kind : std::uint8_t {
        same_bucket,   //!< the run goes on: the next round of the bucket
        other_bucket,  //!< the next run of the window: a later bucket
        waits,         //!< out of window: waits for its continuation
        ends           //!< the chain ends
    };
    static next_kind next_of(const item_t& x) {
        if (std::uint64_t(x.w.len) > 1) return next_kind::same_bucket;
        const unsigned next = x.w.next_len(1);
        if (next == 0) return next_kind::ends;
        return next == in_continuation ? next_kind::waits : next_kind::other_bucket;
    }
    //! The successor of x (placed with rank and name) in its chain, of kind same_bucket or
    //! other_bucket (its bucket: w.ch[0]); the LCP is left to the caller.
    static item_t successor(const item_t& x, Index rank, Index name, next_kind kind) {
        item_t y = x;
        y.rank = rank;
        if constexpr (Named) y.name = name;
        y.pos = Index(std::uint64_t(x.pos) - 1);
        if (kind == next_kind::same_bucket)
            y.w.len = Index(std::uint64_t(x.w.len) - 1);
        else
            y.w = x.w.shifted();
        return y;
    }
    //! A chain out of window (kind waits) or at its end (ends), placed with rank and name.
    void stop(const item_t& x, Index rank, Index name, next_kind kind) {
        if (kind == next_kind::waits)  // w.ch[1]: the byte of the run in the continuation
            waiting_.push(waiting<Index>{x.pos, rank, Lcp ? induced(x.w.ch[1]) : name});
        else
            end_(chain_end<Index>{rank, x.pos, Lcp ? end_lcp(x.pos) : name}, x.w.ch[0]);
    }

    //! The successor of x (placed with rank and name) in its chain.
    void advance(const item_t& x, Index rank, Index name) {
        const next_kind kind = next_of(x);
        if (kind == next_kind::waits || kind == next_kind::ends) return stop(x, rank, name, kind);
        item_t y = successor(x, rank, name, kind);
        if constexpr (Lcp) y.name = induced(y.w.ch[0]);
        if (kind == next_kind::same_bucket && !overflow_ && carry_.size() < lim_.carry_items) {
            carry_.push_back(y);
        } else {
            if (kind == next_kind::same_bucket) overflow_ = true;
            push_successor(y);
        }
    }

    //! process() of a long bulk by all threads (see the file comment). First each slice counts
    //! its successors by bucket (its same-bucket ones apart) and its name changes; the carried
    //! round takes the first same-bucket successors that fit, the run the rest. Then one task
    //! places the suffixes in order (place_, waiting chains, chain ends) while the others write
    //! the slices' successors to their places.
    void process_parallel(const std::vector<item_t>& items) {
        const slicing sl(items.size(), 2 * workers_.threads());
        count_slices(items, sl);
        const std::size_t run_items = plan_slice_places(items);
        const std::uint64_t names_after = plan_slice_names();
        const std::uint64_t first_rank = rank_;
        std::vector<item_t> run(run_items);
        try {
            workers_.for_each(sl.slices + 1, [&](std::size_t task) {
                if (task == 0)
                    place_in_order(items, first_rank);
                else
                    write_successors(items, sl, task - 1, first_rank, run);
            });
        } catch (...) {
            end_bulk_quietly();
            throw;
        }
        rank_ += items.size();
        if constexpr (Named) {
            if (names_after != names_) {
                names_ = names_after;
                prev_name_ = names_;
                prev_inducer_ = items.back().name;
                have_prev_ = true;
            }
        }
        end_bulk();
        if (!run.empty()) q_.push_sorted(std::move(run));
    }

    //! A bulk of n items cut into slices of per items (the last one shorter).
    struct slicing {
        std::size_t n, slices, per;
        slicing(std::size_t items, std::size_t most)
            : n(items), slices(std::min(items, most)), per((items + slices - 1) / slices) {}
        //! The first item of slice s (n for s = slices).
        std::size_t first(std::size_t s) const { return std::min(n, s * per); }
    };

    //! slice_counts_' slot of the same-bucket successors.
    static constexpr unsigned same_slot = 256;

    //! Named only: whether items[k] has another inducer than the suffix placed before it.
    bool name_changes(const std::vector<item_t>& items, std::size_t k) const {
        if (k > 0) return items[k].name != items[k - 1].name;
        return !have_prev_ || items[0].name != prev_inducer_;
    }

    //! A suffix's name: the last new name up to it (the one placed before the bulk's if none).
    Index name_at(std::uint64_t last_new) const {
        return Index(last_new == names_ ? prev_name_ : last_new);
    }

    //! Counts each slice's successors by bucket (the same-bucket ones apart) and name changes.
    void count_slices(const std::vector<item_t>& items, const slicing& sl) {
        slice_counts_.assign(sl.slices, {});
        workers_.for_each(sl.slices, [&](std::size_t s) {
            auto& count = slice_counts_[s];
            for (std::size_t k = sl.first(s); k < sl.first(s + 1); ++k) {
                const item_t& x = items[k];
                const next_kind kind = next_of(x);
                if (kind == next_kind::same_bucket)
                    ++count.at[same_slot];
                else if (kind == next_kind::other_bucket)
                    ++count.at[order::bucket(x.w.ch[1])];
                if constexpr (Named) count.changes += name_changes(items, k);
            }
        });
    }

    //! Turns the slices' counts into where each writes: carried (carry_ grows to hold them),
    //! then the run bucket by bucket, slice by slice; returns the run's length.
    std::size_t plan_slice_places(const std::vector<item_t>& items) {
        const unsigned own = order::bucket(items.front().w.ch[0]);
        std::size_t room =
            overflow_ ? 0 : lim_.carry_items - std::min(lim_.carry_items, carry_.size());
        std::size_t carried = carry_.size();
        for (auto& count : slice_counts_) {
            count.carried = std::min(count.at[same_slot], room);
            room -= count.carried;
            count.carry_at = carried;
            carried += count.carried;
            count.at[own] += count.at[same_slot] - count.carried;
            if (count.at[same_slot] > count.carried) overflow_ = true;
        }
        std::size_t run_items = 0;
        for (unsigned b = 0; b < same_slot; ++b) {
            for (auto& count : slice_counts_) {
                const std::size_t k = count.at[b];
                count.at[b] = run_items;
                run_items += k;
            }
        }
        carry_.resize(carried);
        return run_items;
    }

    //! Turns the slices' name changes into the names before each; returns the names after the
    //! bulk.
    std::uint64_t plan_slice_names() {
        std::uint64_t names_before = names_;
        for (auto& count : slice_counts_) {
            const std::uint64_t k = count.changes;
            count.changes = names_before;
            names_before += k;
        }
        return names_before;
    }

    //! The placing task: the bulk's suffixes in order (place_, waiting chains, chain ends).
    void place_in_order(const std::vector<item_t>& items, std::uint64_t first_rank) {
        std::uint64_t last_new = names_;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const item_t& x = items[k];
            if constexpr (Named) last_new += name_changes(items, k);
            const Index name = Named ? name_at(last_new) : Index(0);
            place_(x.pos, name, x.w.ch[0]);
            const next_kind kind = next_of(x);
            if (kind == next_kind::waits || kind == next_kind::ends)
                stop(x, Index(first_rank + k), name, kind);
        }
    }

    //! Slice s's task: its successors to their places in carry_ and run.
    void write_successors(const std::vector<item_t>& items, const slicing& sl, std::size_t s,
                          std::uint64_t first_rank, std::vector<item_t>& run) {
        auto& count = slice_counts_[s];
        std::uint64_t last_new = count.changes;
        std::size_t carry_left = count.carried;
        for (std::size_t k = sl.first(s); k < sl.first(s + 1); ++k) {
            const item_t& x = items[k];
            if constexpr (Named) last_new += name_changes(items, k);
            const next_kind kind = next_of(x);
            if (kind == next_kind::waits || kind == next_kind::ends) continue;
            const item_t y =
                successor(x, Index(first_rank + k), Named ? name_at(last_new) : Index(0), kind);
            if (kind == next_kind::same_bucket && carry_left > 0) {
                carry_[count.carry_at++] = y;
                --carry_left;
            } else {
                run[count.at[order::bucket(y.w.ch[0])]++] = y;
            }
        }
    }

    //! Places seeds (anchors of chains; in the L-pass all of bucket c are equal substrings, named
    //! alike until the bucket ends).
    void process_seeds(const std::vector<seed<Index>>& seeds, bool unique) {
        hint_ = seeds.size();
        try {
            for (const seed<Index>& s : seeds) {
                const Index rank = Index(rank_++);
                Index name = s.name;
                if constexpr (Named && !Descending) {
                    if (unique || !seed_named_) {
                        seed_name_ = ++names_;
                        seed_named_ = !unique;
                    }
                    name = Index(seed_name_);
                }
                if constexpr (Lcp) placed(rank, seed_lcp(s));
                item_t y{};
                y.rank = rank;
                y.pos = Index(std::uint64_t(s.pos) - 1);
                if constexpr (Named) y.name = name;
                y.w = s.w;
                if constexpr (Lcp) y.name = induced(y.w.ch[0]);
                push_successor(y);
            }
        } catch (...) {
            end_bulk_quietly();
            throw;
        }
        end_bulk();
        push_successors();
    }

    //! The suffix of rank rank has LCP value with the one before it.
    void placed(Index rank, Index value) {
        minima_.placed(std::uint64_t(rank), std::uint64_t(value));
        end_min_ = std::min(end_min_, std::uint64_t(value));
    }
    //! The LCP of the suffix the one placed last induces into bucket c.
    Index induced(std::uint8_t c) { return Index(minima_.induce(c)); }
    //! A chain end at pos (placed last): its LCP with the previous chain end in the bucket.
    //! Position 0 starts no chain of the next pass, so the minimum runs on past it.
    Index end_lcp(Index pos) {
        const std::uint64_t lcp = have_end_ ? end_min_ : 0;
        if (std::uint64_t(pos) != 0) {
            have_end_ = true;
            end_min_ = no_lcp;
        }
        return Index(lcp);
    }
    //! A seed's LCP with the suffix placed before it (see the header).
    Index seed_lcp(const seed<Index>& s) {
        std::uint64_t lcp;
        if (!seed_seen_)
            lcp = std::min<std::uint64_t>(bucket_rounds_, std::uint64_t(s.run));
        else
            lcp = std::uint64_t(Descending ? prev_seed_lcp_ : s.name);
        seed_seen_ = true;
        prev_seed_lcp_ = s.name;
        return Index(lcp);
    }

    //! Chains of bucket c that ran out of window get their continuations.
    void join(std::uint8_t c) {
        if (waiting_.size() == 0) return;
        hint_ = std::size_t(waiting_.size());
        try {
            waiting_.each(lim_.waiting_bytes, [this, c](const waiting<Index>& w) {
                if (conts_.empty() || (*conts_).ch != c || (*conts_).pos != w.pos)
                    throw std::logic_error("emflow: eSAIS continuation out of step");
                item_t y{};
                y.rank = w.rank;
                y.pos = Index(std::uint64_t(w.pos) - 1);
                if constexpr (Mode != pass_mode::plain) y.name = w.name;
                y.w = (*conts_).w;
                ++conts_;
                push(y);
            });
        } catch (...) {
            end_bulk_quietly();
            throw;
        }
        end_bulk();
    }

    //! Pushes y, opening a bulk phase (of about hint_ items) if none is open; a phase takes at
    //! most a bulk of items (the queue lets its insertion heaps grow by a phase's size).
    void push(const item_t& y) {
        if (in_bulk_ && pushed_ == lim_.bulk_items) end_bulk();
        if (!in_bulk_) {
            q_.bulk_push_begin(std::min(hint_, lim_.bulk_items));
            in_bulk_ = true;
            pushed_ = 0;
        }
        q_.bulk_push(y, 0);
        ++pushed_;
    }
    //! Pushes y, the successor of the suffix placed last: on a queue that takes sorted runs, y
    //! waits for the run of its bulk (push_successors).
    void push_successor(const item_t& y) {
        if constexpr (Queue::takes_sorted_runs)
            successors_.push_back(y);
        else
            push(y);
    }
    //! Pushes the successors of a bulk's suffixes as one run in the queue's order. Placed in
    //! rank order, they come in rank order within each bucket (the key's second part), so a
    //! counting sort by bucket, stable, orders them, where the queue would sort them by
    //! comparisons.
    void push_successors() {
        if constexpr (Queue::takes_sorted_runs) {
            if (!successors_.empty())
                q_.push_sorted(by_bucket(successors_, [](const item_t& y) { return y.w.ch[0]; }));
        }
    }
    //! Pushes y, the successor of a ranked seed of byte ch: on a queue that takes sorted runs,
    //! collected a bulk at a time into a run (push_seed_run) while the seeds' runs are in order.
    void push_seed_successor(const item_t& y, std::uint8_t ch) {
        if constexpr (Queue::takes_sorted_runs) {
            if (seed_runs_) {
                successors_.push_back(y);
                seed_bytes_.push_back(ch);
                if (successors_.size() == lim_.bulk_items) push_seed_run();
                return;
            }
        }
        push(y);
    }
    //! Pushes the collected successors of ranked seeds, ordered by a stable counting sort by
    //! their seeds' bytes, then by their buckets. A bucket's seeds take a range of ranks of their
    //! own, the ranges in the pass's order of buckets; so the run is in the queue's order if each
    //! byte's seeds came in rank order (the L-pass naming the substrings ranks them by position).
    //! Else the queue sorts them, and the seeds after them too.
    void push_seed_run() {
        if constexpr (Queue::takes_sorted_runs) {
            if (successors_.empty()) return;
            {
                std::size_t k = 0;
                std::vector<item_t> by_seed =
                    by_bucket(successors_, [this, &k](const item_t&) { return seed_bytes_[k++]; });
                successors_.swap(by_seed);
                seed_bytes_.clear();
            }
            std::vector<item_t> run =
                by_bucket(successors_, [](const item_t& y) { return y.w.ch[0]; });
            const auto pops_before = [](const item_t& a, const item_t& b) { return order()(b, a); };
            if (std::is_sorted(run.begin(), run.end(), pops_before)) {
                q_.push_sorted(std::move(run));
            } else {
                seed_runs_ = false;
                for (const item_t& y : run) push(y);
            }
        }
    }
    //! The items in the pass's order of the buckets byte(item) gives (called once per item, in
    //! order), stable (a counting sort); items is left empty, its storage kept.
    template <class Byte>
    static std::vector<item_t> by_bucket(std::vector<item_t>& items, Byte byte) {
        std::array<std::size_t, 257> at{};
        std::vector<std::uint8_t> keys(items.size());
        for (std::size_t k = 0; k < items.size(); ++k) {
            keys[k] = std::uint8_t(order::bucket(byte(items[k])));
            ++at[keys[k] + 1];
        }
        for (unsigned b = 0; b < 256; ++b) at[b + 1] += at[b];
        std::vector<item_t> sorted(items.size());
        for (std::size_t k = 0; k < items.size(); ++k) sorted[at[keys[k]]++] = items[k];
        items.clear();
        return sorted;
    }
    //! Ends the open bulk phase, if any.
    void end_bulk() {
        if (!in_bulk_) return;
        in_bulk_ = false;
        q_.bulk_push_end();
    }
    void end_bulk_quietly() {
        successors_.clear();
        seed_bytes_.clear();
        try {
            end_bulk();
        } catch (...) {
        }
    }

    Queue& q_;
    Seeds& seeds_;
    Conts& conts_;
    Place place_;
    End end_;
    pass_limits lim_;
    std::uint64_t names_;
    std::uint64_t rank_ = 0;
    const bucket_ranks* ranks_ = nullptr;  // the ranks of a pass with ranked seeds
    position_runs<waiting_t> waiting_;     // chains of the bucket waiting for continuations
    std::vector<item_t> bulk_, cur_, carry_;
    std::vector<item_t> successors_;        // of the current bulk, for push_successors
    std::vector<std::uint8_t> seed_bytes_;  // their seeds' bytes (push_seed_run)
    bool seed_runs_ = true;                 // ranked seeds' successors go in as runs
    std::vector<seed<Index>> seed_chunk_;   // seeds of the current bucket, a bulk at a time
    //! A slice of a bulk processed in parallel: its successors by bucket key (slot 256: the
    //! same-bucket ones), then where they go; its name changes, then the names before it.
    struct slice_count {
        std::array<std::size_t, 257> at{};
        std::size_t carried = 0;   // its same-bucket successors that are carried
        std::size_t carry_at = 0;  // where they go in carry_
        std::uint64_t changes = 0;
    };
    std::vector<slice_count> slice_counts_;
    algorithm::workers workers_;  // the threads of process_parallel
    bool overflow_ = false;
    bool in_bulk_ = false;
    std::size_t pushed_ = 0;       // items pushed in the open bulk phase
    std::size_t hint_ = 0;         // items of the current bulk (the phase's size estimate)
    bool have_prev_ = false;       // a suffix was placed in this bucket (names)
    Index prev_inducer_{};         // its inducer's name
    std::uint64_t prev_name_ = 0;  // its name
    std::uint64_t seed_name_ = 0;  // the name of the current bucket's seeds (L-pass)
    bool seed_named_ = false;
    static constexpr std::uint64_t no_lcp = std::numeric_limits<std::uint64_t>::max();
    lcp_minima minima_;                        // LCP: the minima between inducers
    std::array<std::uint64_t, 256> rounds_{};  // each bucket's repetition rounds
    std::uint64_t bucket_rounds_ = 0;          // the current bucket's so far
    bool have_end_ = false;                    // LCP: a chain end was placed in this bucket
    std::uint64_t end_min_ = no_lcp;           // LCP: the minimum since then
    bool seed_seen_ = false;                   // LCP: a seed was placed in this bucket
    Index prev_seed_lcp_{};                    // LCP: its carried LCP
};

}  // namespace emflow::pipelines::sa::detail::esais
