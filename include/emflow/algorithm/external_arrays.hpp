// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/external_arrays.hpp: the external arrays of the queue, their dynamic block
// prefetch prediction, the merge limit, and merges out of them.
//
// Prediction: blocks are needed in the order of their minima (first items). A tournament tree
// over the next not-yet-hinted block of every array yields the k smallest block minima; those
// blocks are hinted (read asynchronously) as far as the read budget (read blocks per array times
// arrays) allows. When a new array arrives the tree is reset to the first block of each array
// that is hinted but not loaded and replayed; hints no longer among the k smallest are dropped
// (their reads completed, not cancelled: see external_array::drop_last) and new ones issued.
// During bulk pushes prefetching is disabled and re-planned at the end.
//
// Merge limit: a second tournament tree over the minimum of each array's block after its current
// one gives the smallest item not in any current block. Every merge out of the arrays is cut
// there (items <= limit), so the queue order holds however the arrays interleave.
#pragma once

#include <emflow/algorithm/external_array.hpp>
#include <emflow/algorithm/external_writer.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/algorithm/tournament_tree.hpp>
#include <emflow/ppq/config.hpp>
#include <emflow/ppq/stats.hpp>

#include <algorithm>
#include <memory>
#include <vector>

namespace emflow::algorithm {

//! The queue's external arrays: block prefetch prediction, the merge limit, and merges out of
//! them.
template <class T, class Order>
class external_arrays {
public:
    //! Owner of one external array.
    using array_ptr = std::unique_ptr<external_array<T>>;

    //! No arrays yet: blocks and read budget from cfg, items ordered by order, I/O counted in
    //! stats.
    external_arrays(const ppq_layout& cfg, const Order& order, ppq_stats& stats)
        : cfg_(cfg), order_(order), stats_(stats), pool_(cfg.block_bytes),
          limit_tree_(limit_beats{this}) {}
    ~external_arrays() { clear(); }
    external_arrays(const external_arrays&) = delete;
    external_arrays& operator=(const external_arrays&) = delete;

    //! Frees every array (buffers and disk blocks).
    void clear() noexcept {
        for (auto& a : arrays_) a->release(pool_);
        arrays_.clear();
        pool_.trim(0);
    }
    //! Number of arrays.
    std::size_t count() const { return arrays_.size(); }
    //! True if no external items remain.
    bool empty() const { return arrays_.empty(); }
    //! Unconsumed items in all arrays.
    std::size_t size() const {
        std::size_t n = 0;
        for (auto& a : arrays_) n += a->remaining();
        return n;
    }
    //! Unconsumed items that are not in RAM.
    std::size_t items_on_disk() const {
        std::size_t n = 0;
        for (auto& a : arrays_)
            n += a->remaining() - (a->current_loaded() ? std::size_t(a->tail() - a->head()) : 0);
        return n;
    }
    //! RAM held by read buffers.
    std::size_t ram_bytes() const { return pool_.held_bytes(); }
    //! The most RAM read buffers held since the previous call.
    std::size_t take_peak_ram_bytes() { return pool_.take_peak_bytes(); }
    //! Read buffer RAM the arrays may claim: read blocks per array, and a spare buffer.
    std::size_t reserved_bytes(std::size_t arrays) const {
        return (arrays * cfg_.read_blocks + 1) * cfg_.block_bytes;
    }
    //! Number of arrays on each level.
    std::vector<std::size_t> per_level() const {
        std::vector<std::size_t> v;
        for (auto& a : arrays_) {
            if (v.size() <= a->level()) v.resize(a->level() + 1);
            ++v[a->level()];
        }
        return v;
    }

    //! Enables or disables prefetching; enabling re-plans the hints.
    void set_prefetch(bool on) {
        prefetch_ = on;
        if (on) rehint();
    }

    //! Holds at most blocks read blocks in all (at least the current ones) instead of read
    //! blocks per array: for a merge of all arrays given one budget (an external sort's).
    void set_read_budget(std::size_t blocks) { read_budget_ = blocks; }

    //! Adds a freshly written array (re-plans the prefetch hints).
    void add(array_ptr a) {
        arrays_.push_back(std::move(a));
        arrays_changed();
    }

    //! Appends the current blocks' ranges up to the merge limit (and before user_limit, if
    //! given) to seqs, their array indices to owners. Loads the blocks that are needed.
    void prepare_round(std::vector<sequence<T>>& seqs, std::vector<std::size_t>& owners,
                       const T*& limit) {
        limit = merge_limit();
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            auto& a = *arrays_[i];
            if (!participates(i) || a.empty()) continue;
            if (!a.current_loaded()) {
                if (limit && order_(*limit, a.minimum(a.current()))) continue;  // after limit
                if (a.hint_end() == a.current()) stats_.bytes_read += cfg_.block_bytes;
                if (a.load_current(pool_))
                    ++stats_.prefetch_hits;
                else
                    ++stats_.prefetch_misses;
            }
            T* end = limit ? std::upper_bound(a.head(), a.tail(), *limit, order_) : a.tail();
            seqs.emplace_back(a.head(), end);
            owners.push_back(i);
        }
    }
    //! After a merge: array owner's current range now begins at new_head. Call finish_round()
    //! after all owners are updated.
    void consumed(std::size_t owner, T* new_head) {
        if (arrays_[owner]->consume_to(new_head, pool_)) {
            limit_tree_.replay(owner);
            blocks_advanced_ = true;
        }
    }
    //! Drops exhausted arrays and tops up the prefetch hints.
    void finish_round() {
        std::size_t before = arrays_.size();
        for (std::size_t i = 0; i < arrays_.size();) {
            if (arrays_[i]->empty()) {
                arrays_[i]->release(pool_);
                arrays_.erase(arrays_.begin() + std::ptrdiff_t(i));
                if (!participating_.empty())
                    participating_.erase(participating_.begin() + std::ptrdiff_t(i));
            } else {
                ++i;
            }
        }
        if (arrays_.size() != before) limit_tree_.rebuild(arrays_.size());
        if (blocks_advanced_ || arrays_.size() != before) {
            blocks_advanced_ = false;
            if (prefetch_ || !participating_.empty()) rehint();
        }
    }

    //! Merges up to max items out of the arrays into target (one round, cut at the merge
    //! limit); returns the number merged.
    std::size_t merge_round(T* target, std::size_t max, workers& w) {
        std::vector<sequence<T>> seqs;
        std::vector<std::size_t> owners;
        const T* limit;
        prepare_round(seqs, owners, limit);
        std::size_t n = multiway_merge(seqs, target, max, order_, w);
        for (std::size_t k = 0; k < owners.size(); ++k) consumed(owners[k], seqs[k].first);
        finish_round();
        return n;
    }

    //! Index of the level that should be merged before another array can be added, or -1.
    //! A level is merged when it is full, or when the read buffers of one more array would
    //! exceed half of the pool.
    int level_to_merge(std::size_t pool_bytes) const {
        auto lv = per_level();
        for (std::size_t l = 0; l < lv.size(); ++l)
            if (lv[l] >= cfg_.max_per_level) return int(l);
        if (reserved_bytes(arrays_.size() + 1) <= pool_bytes / 2 || arrays_.size() < 2) return -1;
        std::size_t best = 0;
        for (std::size_t l = 1; l < lv.size(); ++l)
            if (lv[l] > lv[best]) best = l;
        return lv[best] >= 2 ? int(best) : int(lv.size());  // lv.size(): merge all levels
    }
    //! Merges the arrays on level (all arrays if level is past the last one) into one array on
    //! the next level, streaming through the read and write buffers.
    void merge_level(unsigned level, workers& workers, unsigned& next_disk) {
        auto lv = per_level();
        const bool all = level >= lv.size();
        participating_.assign(arrays_.size(), false);
        unsigned out_level = all ? unsigned(lv.size()) : level + 1;
        for (std::size_t i = 0; i < arrays_.size(); ++i)
            participating_[i] = all || arrays_[i]->level() == level;
        limit_tree_.rebuild(arrays_.size());
        try {
            rehint();
            external_writer<T> w(cfg_, out_level, next_disk);
            std::size_t left = 0;
            for (std::size_t i = 0; i < arrays_.size(); ++i)
                left += participating_[i] ? arrays_[i]->remaining() : 0;
            while (left) {
                std::size_t room;
                T* dst = w.space(room);
                std::size_t n = merge_round(dst, room, workers);
                w.commit(n);
                left -= n;
            }
            array_ptr merged = w.finish();
            stats_.bytes_written += w.bytes_written();
            participating_.clear();
            ++stats_.external_merges;
            add(std::move(merged));
        } catch (...) {
            participating_.clear();
            limit_tree_.rebuild(arrays_.size());
            throw;
        }
    }

    //! Re-plans the prefetch hints (see the header comment) within the read budget of read
    //! blocks per array: the current block of every merging array first (it is needed next;
    //! a loaded one is in use), then the blocks with the smallest minima. Hints outside the
    //! plan are withdrawn, loaded blocks outside it dropped.
    void rehint() {
        const std::size_t n = arrays_.size();
        // want[i]: one past the last block of array i to hold
        std::vector<std::size_t>& want = next_;
        want.assign(n, 0);
        std::size_t used = 0;
        for (std::size_t i = 0; i < n; ++i) {
            auto& a = *arrays_[i];
            const bool current = participates(i) ? !a.empty() : a.current_loaded();
            want[i] = a.current() + current;
            used += current;
        }
        const std::size_t budget = read_budget_ ? read_budget_ : n * cfg_.read_blocks;
        tournament_tree<hint_beats> tree(hint_beats{this});
        tree.rebuild(n);
        while (used < budget) {
            std::uint32_t w = tree.winner();
            if (w == tree.none || want[w] >= arrays_[w]->blocks()) break;
            ++want[w];
            ++used;
            tree.replay(w);
        }
        for (std::size_t i = 0; i < n; ++i) {
            auto& a = *arrays_[i];
            for (; a.hint_end() > want[i]; ++stats_.hints_cancelled) a.drop_last(pool_);
            while (a.hint_end() < want[i]) {
                a.hint_next(pool_);
                stats_.bytes_read += cfg_.block_bytes;
            }
        }
        pool_.trim(1);
    }

private:
    bool participates(std::size_t i) const { return participating_.empty() || participating_[i]; }
    //! The smallest item not in any participating array's current block, or nullptr.
    const T* merge_limit() const {
        std::uint32_t w = limit_tree_.winner();
        if (w == limit_tree_.none) return nullptr;
        auto& a = *arrays_[w];
        if (!participates(w) || a.current() + 1 >= a.blocks()) return nullptr;
        return &a.minimum(a.current() + 1);
    }
    void arrays_changed() {
        limit_tree_.rebuild(arrays_.size());
        if (prefetch_) rehint();
    }

    struct limit_beats {
        const external_arrays* self;
        bool operator()(std::uint32_t x, std::uint32_t y) const {
            auto& a = *self->arrays_[x];
            auto& b = *self->arrays_[y];
            bool ha = self->participates(x) && a.current() + 1 < a.blocks();
            bool hb = self->participates(y) && b.current() + 1 < b.blocks();
            if (!ha) return false;
            if (!hb) return true;
            return self->order_(a.minimum(a.current() + 1), b.minimum(b.current() + 1));
        }
    };
    struct hint_beats {
        const external_arrays* self;
        bool operator()(std::uint32_t x, std::uint32_t y) const {
            auto& a = *self->arrays_[x];
            auto& b = *self->arrays_[y];
            std::size_t i = self->next_[x], j = self->next_[y];
            if (!self->participates(x) || i >= a.blocks()) return false;
            if (!self->participates(y)) return true;
            if (j >= b.blocks()) return true;
            return self->order_(a.minimum(i), b.minimum(j));
        }
    };

    const ppq_layout& cfg_;
    Order order_;
    ppq_stats& stats_;
    block_pool pool_;
    std::vector<array_ptr> arrays_;
    std::vector<bool> participating_;  // empty: all arrays take part
    std::vector<std::size_t> next_;    // rehint(): one past the last block to hold per array
    tournament_tree<limit_beats> limit_tree_;
    std::size_t read_budget_ = 0;  // 0: read blocks per array
    bool prefetch_ = true;
    bool blocks_advanced_ = false;
};

}  // namespace emflow::algorithm
