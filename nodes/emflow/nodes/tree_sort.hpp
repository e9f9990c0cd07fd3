// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/tree_sort.hpp: buffer tree sort (Hutchinson et al., sec. 2.1 and 3.2) as flow
// graph nodes: tree_sorter_node is pushed into (every item inserted into a buffer tree that
// only sorts: bare keys, no time stamps, leaf nodes of sorted runs), push_stop() empties every
// buffer, then the leaf nodes are pulled from left to right, each one's runs merged in RAM by a
// parallel multiway merge, piece by piece, while the next one is read ahead (a node too large for
// that is sorted by the tree first).
// tree_sort(src, cmp, ...) and `src | tree_sort(cmp, ...)` are pull nodes like sort(); the input is
// read at the first pull, in the lower phase.
//
// Memory (emflow/memory_budget.hpp), like sorter_node: the tree is one consumer of the phase
// it is pushed in (memory_bytes, or automatic: at least 32 blocks, as its phase assigns), the
// reading of the leaves one of the next phase (memory_bytes, or automatic: at least 8 blocks;
// a quarter of it reads ahead, an eighth holds a merged piece, the rest a leaf node). Outside:
// the tree's skeleton (about 40 bytes per block of items). The comparator is any strict weak
// ordering; items are stored as bytes (trivially copy-constructible and destructible types,
// std::pair included).
//
//   auto sorted = src | tree_sort(std::less<>(), 256 << 20);
#pragma once

#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/buffer_tree.hpp>
#include <emflow/detail/buffer_tree/block_io.hpp>
#include <emflow/detail/buffer_tree/params.hpp>
#include <emflow/detail/buffer_tree/records.hpp>
#include <emflow/detail/buffer_tree/tree.hpp>
#include <emflow/external_memory.hpp>
#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace emflow {

//! The shape of a tree sort's buffer tree; 0 picks the paper's tuned value (see
//! buffer_tree_options).
struct tree_sort_options {
    std::size_t fanout_max = 0;     //!< b; 0: m/8
    std::size_t fanout_min = 0;     //!< a; 0: b/4
    std::size_t buffer_blocks = 0;  //!< a buffer with more blocks is emptied; 0: m/2
    std::size_t root_fanout = 0;    //!< leaf nodes the root starts with; 0: m/4 (at least b)
};

//! Push in, pull out tree sort of T by cmp, in blocks of BlockBytes.
template <class T, class Cmp, std::size_t BlockBytes = std::size_t(64) << 10>
class tree_sorter_node {
    static_assert(detail::buffer_tree::storable_v<T>,
                  "tree_sort: items are stored as bytes: they must be trivially "
                  "copy-constructible, trivially destructible and default-constructible");
    using engine = detail::buffer_tree::tree<T, detail::buffer_tree::sort_only, Cmp, BlockBytes>;
    using elem = typename engine::elem;
    using reader = detail::buffer_tree::block_reader<elem, BlockBytes>;
    static_assert(sizeof(elem) == sizeof(T), "a leaf of a sorting tree holds bare items");

public:
    using value_type = T;  //!< element type

    //! A tree sort by cmp within memory_bytes (0: as the run's budget assigns).
    tree_sorter_node(Cmp cmp, std::size_t memory_bytes, tree_sort_options opt = {})
        : cmp_(cmp), memory_(memory_bytes), opt_(opt), state_(std::make_unique<state>()) {}
    tree_sorter_node(tree_sorter_node&&) noexcept = default;
    tree_sorter_node& operator=(tree_sorter_node&&) noexcept = default;

    //! Declares its memory (file comment) and checks an explicit budget. Reached twice in one
    //! graph (push and pull side), it places the tree in the lower phase and the reading in the
    //! higher one.
    void start(run_context& ctx) {
        const int level = ctx.memory().level();
        if (run_ != ctx.id()) {
            run_ = ctx.id();
            ctx_ = &ctx;
            ctx.register_wait_point(state_->mutex, state_->wait);
            declare_memory(ctx.memory(), level);
        } else if (build_id_ != no_id && level != first_level_) {
            ctx.memory().move_to(build_id_, std::min(level, first_level_));
            ctx.memory().move_to(read_id_, std::max(level, first_level_));
        }
    }

    // ---- push side ----
    //! Adds x.
    void push(const T& x) {
        if (!state_->tree) make_tree();
        state_->tree->add({x});
        ++state_->pushed;
    }
    //! Adds n elements.
    void push_batch(const T* p, std::size_t n) {
        if (!state_->tree) make_tree();
        for (std::size_t i = 0; i < n; ++i) state_->tree->add({p[i]});
        state_->pushed += n;
        if (build_id_ != no_id) ctx_->memory().count(build_id_, n, n * sizeof(T));
    }
    //! Ends the input: every buffer is emptied, then the sorted stream can be pulled.
    void push_stop() {
        state& s = *state_;
        if (s.tree) {
            s.tree->flush();
            s.height = s.tree->height();
            s.groups = s.tree->take_leaf_groups(group_blocks());
            s.stats = s.tree->io();
            s.tree.reset();
        }
        if (build_id_ != no_id) ctx_->memory().release(build_id_);
        std::lock_guard<std::mutex> lock(s.mutex);
        s.input_done = true;
        s.wait.notify_all();
    }

    // ---- pull side ----
    //! True when every element was pulled (waits for the input to end first).
    bool empty() { return pos_ == count_ && !refill(); }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    tree_sorter_node& operator++() { return *this += 1; }
    //! Sorted elements buffered.
    std::size_t batch_length() { return empty() ? 0 : count_ - pos_; }
    //! The buffered sorted elements.
    const T* batch_begin() { return &items_[pos_]; }
    //! Advances by n <= batch_length().
    tree_sorter_node& operator+=(std::size_t n) {
        pos_ += n;
        return *this;
    }
    //! Elements pushed so far.
    std::uint64_t pushed() const { return state_->pushed; }
    //! The buffer tree's work (after push_stop()).
    buffer_tree_stats stats() const {
        const auto& a = state_->stats;
        return {a.blocks_read,     a.blocks_written,
                a.block_pushes,    state_->height,
                a.pushed_internal, a.pushed_leaf_node,
                a.pushed_items,    a.buffer_read,
                a.leaf_written,    a.leaf_read + a.consolidated,
                a.sorted_at_flush};
    }

private:
    static constexpr std::size_t no_id = ~std::size_t(0);
    static constexpr std::size_t read_blocks = 8;
    static constexpr std::size_t default_memory = std::size_t(64) << 20;

    //! A leaf node's blocks and their reader (which gives each block back once read).
    struct group_reader {
        std::vector<detail::buffer_tree::stored_block<BlockBytes>> blocks;
        reader r;
        group_reader(std::vector<detail::buffer_tree::stored_block<BlockBytes>>&& b,
                     std::size_t lookahead, detail::buffer_tree::io_counts& io)
            : blocks(std::move(b)), r(blocks, lookahead, true, io) {}
    };

    void declare_memory(memory_plan& plan, int level) {
        ensure_external_memory();
        const std::size_t least = detail::buffer_tree::minimum_memory(BlockBytes);
        if (memory_ > 0 && memory_ < least)
            throw std::invalid_argument("emflow: tree sort memory budget of " +
                                        format_mib(memory_, false) + " is too small (at least " +
                                        format_mib(least, true) + ")");
        resolve(memory_ > 0 ? memory_ : least);  // bad fan-outs fail here, before any work
        first_level_ = level;
        build_id_ = no_id;
        if (!state_->input_done && !state_->tree) {
            build_id_ = plan.declare(
                "tree sort",
                memory_ > 0 ? memory_demand::fixed(memory_)
                            : memory_demand{least, unbounded_memory, 1, default_memory},
                {}, 1);
            ++level;
        }
        read_id_ = plan.declare_at(level, "tree sort read",
                                   memory_ > 0 ? memory_demand::fixed(memory_)
                                               : memory_demand{read_blocks * BlockBytes,
                                                               unbounded_memory, 1, default_memory},
                                   {}, 2);
    }

    detail::buffer_tree::tree_params resolve(std::size_t memory) const {
        return detail::buffer_tree::resolve_sort_params(
            memory, BlockBytes, engine::request_block_items, opt_.fanout_max, opt_.fanout_min,
            opt_.buffer_blocks, opt_.root_fanout);
    }

    //! Blocks of the reading's memory (at least read_blocks).
    std::size_t read_memory_blocks() const {
        std::size_t bytes = memory_ > 0 ? memory_ : default_memory;
        if (read_id_ != no_id && ctx_) bytes = ctx_->memory().assigned(read_id_);
        return std::max(bytes / BlockBytes, read_blocks);
    }
    //! Blocks read ahead: a quarter of the reading's memory (the next leaf node's, while one
    //! is merged), at least read_blocks - 1.
    std::size_t prefetch_blocks() const {
        return std::max(read_blocks - 1, read_memory_blocks() / 4);
    }
    //! Items merged at a time: an eighth of the reading's memory.
    std::size_t piece_items() const {
        return std::max<std::size_t>(1, read_memory_blocks() / 8) * (BlockBytes / sizeof(T));
    }
    //! The most blocks of a leaf node the reading merges in RAM: its memory less the
    //! prefetching, a merged piece and a block.
    std::size_t group_blocks() const {
        const std::size_t m = read_memory_blocks(), used = prefetch_blocks() + m / 8 + 1;
        return m > used ? m - used : 0;
    }

    void make_tree() {
        std::size_t mem = memory_ > 0 ? memory_ : default_memory;
        if (build_id_ != no_id) {
            memory_plan& plan = ctx_->memory();
            mem = plan.acquire(build_id_, plan.assigned(build_id_));
            if (memory_ == 0 && plan.budget() == 0) mem = std::max(mem, default_memory);
        }
        state_->tree = std::make_unique<engine>(cmp_, resolve(mem), nullptr);
    }

    //! Waits for the input's end, then gives the next piece of the merge of a leaf node, or
    //! the next block of a leaf node of one run.
    bool refill() {
        state& s = *state_;
        if (done_) return false;
        if (!started_reading_) {
            {
                std::unique_lock<std::mutex> lock(s.mutex);
                s.wait.wait(lock, *ctx_, [&] { return s.input_done; });
            }
            ctx_->memory().acquire(read_id_, ctx_->memory().assigned(read_id_));
            started_reading_ = true;
        }
        pos_ = count_ = 0;
        while (count_ == 0) {
            if (s.streamed) {
                const elem* p = nullptr;
                if (s.streamed->r.next(p, count_)) {
                    items_ = &p->key;
                    continue;
                }
                s.streamed.reset();
            }
            if (!runs_.empty()) {
                count_ = algorithm::multiway_merge(runs_, scratch_.data(), scratch_.size(), cmp_,
                                                   *workers_);
                items_ = scratch_.data();
                if (count_ == 0) runs_.clear();
                continue;
            }
            if (next_group_ == s.groups.size()) break;
            open_group();
        }
        if (count_ > 0) {
            ctx_->memory().count(read_id_, count_, count_ * sizeof(T));
            return true;
        }
        s.groups.clear();
        merged_ = std::vector<T>();
        scratch_ = std::vector<T>();
        workers_.reset();
        done_ = true;
        ctx_->memory().release(read_id_);
        return false;
    }

    //! Starts reading the next leaf node: one sorted run is streamed; several are loaded, the
    //! next node's reads are started, and the runs are merged piece by piece (refill()).
    void open_group() {
        state& s = *state_;
        std::unique_ptr<group_reader> g = std::move(s.ahead);
        if (!g) g = read_group(next_group_);
        ++next_group_;
        std::vector<std::size_t> starts;
        for (std::size_t i = 0, at = 0; i < g->blocks.size(); at += g->blocks[i++].count)
            if (i == 0 || g->blocks[i].run_start) starts.push_back(at);
        if (starts.size() == 1) {
            s.streamed = std::move(g);
            return;
        }
        merged_.clear();
        const elem* p = nullptr;
        for (std::size_t count = 0; g->r.next(p, count);)
            merged_.insert(merged_.end(), &p->key, &p->key + count);
        g.reset();
        if (next_group_ < s.groups.size()) s.ahead = read_group(next_group_);
        starts.push_back(merged_.size());
        for (std::size_t i = 0; i + 1 < starts.size(); ++i)
            runs_.push_back({merged_.data() + starts[i], merged_.data() + starts[i + 1]});
        scratch_.resize(std::min(merged_.size(), piece_items()));
        if (!workers_)
            workers_ = std::make_unique<algorithm::workers>(algorithm::workers::in_caller_arena(
                unsigned(std::max(1, tbb::this_task_arena::max_concurrency()))));
    }

    //! Leaf node i's blocks, taken from the groups, and their reader (prefetching).
    std::unique_ptr<group_reader> read_group(std::size_t i) {
        state& s = *state_;
        auto g = std::make_unique<group_reader>(std::move(s.groups[i]), prefetch_blocks(), s.stats);
        s.groups[i].clear();
        return g;
    }

    struct state {
        std::unique_ptr<engine> tree;
        std::vector<std::vector<detail::buffer_tree::stored_block<BlockBytes>>> groups;
        std::unique_ptr<group_reader> streamed;  // a leaf node of one run, being read
        std::unique_ptr<group_reader> ahead;     // the next leaf node, read ahead
        detail::buffer_tree::io_counts stats;
        std::size_t height = 0;
        std::mutex mutex;
        wait_point wait;
        bool input_done = false;
        std::uint64_t pushed = 0;
        ~state() {
            streamed.reset();  // they give back the blocks they have not read
            ahead.reset();
            for (const auto& g : groups)
                for (const auto& b : g) {
                    try {
                        detail::buffer_tree::free_block(b);
                    } catch (...) {
                    }
                }
        }
    };

    Cmp cmp_;
    std::size_t memory_;
    tree_sort_options opt_;
    std::unique_ptr<state> state_;
    run_context* ctx_ = nullptr;
    std::uint64_t run_ = 0;
    std::size_t build_id_ = no_id, read_id_ = no_id;
    int first_level_ = 0;
    const T* items_ = nullptr;
    std::size_t count_ = 0, pos_ = 0;
    std::size_t next_group_ = 0;
    std::vector<T> merged_, scratch_;           // a leaf node of several runs, and a merged piece
    std::vector<algorithm::sequence<T>> runs_;  // what is left of merged_'s runs
    std::unique_ptr<algorithm::workers> workers_;  // its parallel multiway merge
    bool started_reading_ = false, done_ = false;
};

//! Pull node: src tree-sorted by cmp.
template <class Src, class Cmp, std::size_t BlockBytes = std::size_t(64) << 10>
class tree_sort_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src sorted by cmp within memory_bytes (0: as the run's budget assigns).
    tree_sort_node(Src&& src, Cmp cmp, std::size_t memory_bytes, tree_sort_options opt)
        : src_(std::forward<Src>(src)), sorter_(cmp, memory_bytes, opt) {}

    //! Starts src and the sorter, src in the phase below (where the tree is built).
    void start(run_context& ctx) {
        {
            memory_plan::below build_phase(ctx.memory());
            src_.start(ctx);
            sorter_.start(ctx);
        }
        ctx.memory().declare_run_long("tree sort read chunk",
                                      memory_demand::fixed(default_chunk * sizeof(value_type)));
    }
    //! True when every sorted element was pulled.
    bool empty() {
        if (!read_) read_all();
        return sorter_.empty();
    }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    tree_sort_node& operator++() { return *this += 1; }
    //! Sorted elements buffered.
    std::size_t batch_length() { return empty() ? 0 : sorter_.batch_length(); }
    //! The buffered sorted elements.
    const value_type* batch_begin() { return sorter_.batch_begin(); }
    //! Advances by n <= batch_length().
    tree_sort_node& operator+=(std::size_t n) {
        sorter_ += n;
        return *this;
    }
    //! The buffer tree's work (once the input was read).
    buffer_tree_stats stats() const { return sorter_.stats(); }

private:
    void read_all() {
        read_ = true;
        std::vector<value_type> scratch(default_chunk);
        while (!src_.empty()) {
            const std::size_t n = std::min(src_.batch_length(), scratch.size());
            with_contiguous(src_.batch_begin(), n, scratch.data(),
                            [&](const value_type* p, std::size_t k) { sorter_.push_batch(p, k); });
            src_ += n;
        }
        sorter_.push_stop();
    }

    stored_t<Src> src_;
    tree_sorter_node<value_type, Cmp, BlockBytes> sorter_;
    bool read_ = false;
};

//! src tree-sorted by cmp within memory_bytes (0: as the run's budget assigns).
template <class Src, class Cmp, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto tree_sort(Src&& src, Cmp cmp, std::size_t memory_bytes = 0, tree_sort_options opt = {}) {
    return tree_sort_node<Src, Cmp>(std::forward<Src>(src), cmp, memory_bytes, opt);
}

//! Stage for `src | tree_sort(cmp, memory_bytes, opt)`.
template <class Cmp, std::enable_if_t<!is_pull_node_v<Cmp>, int> = 0>
auto tree_sort(Cmp cmp, std::size_t memory_bytes = 0, tree_sort_options opt = {}) {
    return make_stage([cmp, memory_bytes, opt](auto&& src) {
        return tree_sort(std::forward<decltype(src)>(src), cmp, memory_bytes, opt);
    });
}

//! A push-fed tree sorter of T by cmp within memory_bytes (0: as the run's budget assigns).
template <class T, class Cmp>
tree_sorter_node<T, Cmp> tree_sorter(Cmp cmp, std::size_t memory_bytes = 0,
                                     tree_sort_options opt = {}) {
    return tree_sorter_node<T, Cmp>(cmp, memory_bytes, opt);
}

}  // namespace emflow
