// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/tree.hpp: the buffer tree's engine (Arge; Hutchinson et al., sec. 2):
// requests gathered in RAM as the root's buffer (one chunk; Arge keeps the root's buffer in
// memory), sorted and distributed when it is full; any other buffer with more than
// buffer_blocks blocks is emptied: loaded in chunks (a prefix of its blocks, which keeps each
// key's requests in time order), whose sorted pushes from the parent are merged by (key, time),
// then distributed to the children's buffers, or at a leaf node merged into its leaves.
// Children whose buffers filled are emptied next, then the node's children are rebalanced:
// more than b children split, fewer than a fuse with a neighbour (both buffers emptied first; a
// fusion of more than b is shared out by a split).
//
// A dictionary's root may have root_fanout > b children, which saves a level of buffers on disk
// (each request is written and read once per level). So that its many pushes are whole blocks,
// the root holds each child's last partial block back in its buffer in RAM (at most
// root_hold_items requests, the first of the next chunk: sorted already, merged with the new
// ones); add() holds, every other emptying (flush, take_front, a root about to change) pushes
// them all. Held requests stay above everything on their keys below them, so time order holds.
//
// A tree that only sorts (Value = sort_only; tree sort) keeps its leaf nodes as runs instead:
// a sort needs every key to reach its leaf node once and be read once in order, so a part
// pushed to a leaf node is written as a sorted run appended to its leaves (no buffer, no merge
// with the leaves). Every pass it adds to "write the runs, read them" is what it costs beyond a
// sort (bench/buffer_tree/README.md), so: its first full chunk makes the root's children,
// root_fanout leaf nodes cut at evenly spaced keys of that sample (one level, no internal
// buffers to write and read again, for inputs up to about root_fanout * leaf_node_blocks
// blocks); a run's last partial block stays staged in RAM and is merged into the node's next
// run (full blocks only; staging is bounded by stage_items, beyond it a run ends in a partial
// block); a leaf node is sorted (its runs merged into one) only when it must be cut: beyond
// leaf_node_blocks it is sorted and halved. take_leaf_groups() writes the staged keys and
// gives each leaf node's runs to the reader, which merges them in RAM.
#pragma once

#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/detail/buffer_tree/block_io.hpp>
#include <emflow/detail/buffer_tree/leaf_merge.hpp>
#include <emflow/detail/buffer_tree/node.hpp>
#include <emflow/detail/buffer_tree/records.hpp>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::detail::buffer_tree {

//! Sizes of a tree, all resolved (see buffer_tree_options).
struct tree_params {
    std::size_t fanout_min;     //!< a
    std::size_t fanout_max;     //!< b
    std::size_t buffer_blocks;  //!< a buffer with more blocks is full
    std::size_t chunk_items;    //!< requests sorted at once
    std::size_t read_ahead;     //!< reads in flight
    std::size_t write_depth;    //!< writes in flight
    // a sorting tree only (resolve_sort_params), but root_fanout:
    std::size_t root_fanout = 0;       //!< the most children of an internal root (0: b)
    std::size_t leaf_write_depth = 0;  //!< leaf writes in flight; 0: write_depth / 2
    std::size_t stage_items = 0;       //!< the most keys staged in RAM (node::staged), in all
    std::size_t leaf_node_blocks = 0;  //!< a leaf node with more blocks is sorted and cut
    // a dictionary only (resolve_dictionary_params):
    std::size_t root_hold_items = 0;  //!< the most requests the root holds back (file comment)
};

//! The tree: nodes, buffers, emptying and rebalancing.
template <class Key, class Value, class Cmp, std::size_t RawBytes>
class tree {
public:
    using req = request<Key, Value>;        //!< a request
    using elem = element<Key, Value>;       //!< a stored element
    using node_type = node<Key, RawBytes>;  //!< a node
    //! Receives a look-up's answers: one call per element found, one with nullptr if none.
    using answer_fn = std::function<void(const req&, const elem*)>;

    using stored = stored_request<Key, Value>;  //!< a request in a buffer on disk
    //! Requests in a block's worth of RAM (the sizes of tree_params count these).
    static constexpr std::size_t request_block_items = block_writer<req, RawBytes>::capacity;
    //! Requests in a buffer's block on disk.
    static constexpr std::size_t stored_block_items = block_writer<stored, RawBytes>::capacity;
    //! A tree that only sorts: leaf nodes of runs (file comment).
    static constexpr bool sorting = std::is_same_v<Value, sort_only>;
    static_assert(!sorting || sizeof(req) == sizeof(elem), "a sorting tree stores bare keys");

    //! An empty tree.
    tree(Cmp cmp, tree_params p, answer_fn answer)
        : cmp_(cmp), p_(p), answer_(std::move(answer)), root_(std::make_unique<node_type>()),
          requests_(p.write_depth, io_),
          elements_(
              p.leaf_write_depth ? p.leaf_write_depth : std::max<std::size_t>(1, p.write_depth / 2),
              io_) {}
    ~tree() {
        requests_.drain();
        elements_.drain();
        root_->free_all();
    }
    tree(const tree&) = delete;
    tree& operator=(const tree&) = delete;

    //! Adds a request (in time order).
    void add(const req& r) {
        if (pending_.capacity() < p_.chunk_items) pending_.reserve(p_.chunk_items);
        pending_.push_back(r);
        if (pending_.size() >= p_.chunk_items) empty_root(true);
    }

    //! Empties every buffer: every request has reached its leaf.
    void flush() {
        empty_root();
        flush_node(*root_);
        reshape_root();
    }

    //! The buffer-tree priority queue's refill (Hutchinson et al., sec. 2.2): empties the
    //! buffers on the path to the leftmost leaf node, moves that node's elements (in order, at
    //! most b leaves: its parent splits it first) to out and removes them from the tree. Sets
    //! bound to the least key that stays in the tree's range; false if the tree is empty then.
    //! For trees of inserts only.
    bool take_front(std::vector<elem>& out, Key& bound) {
        empty_root();
        std::vector<node_type*> path{root_.get()};
        for (;; path.push_back(path.back()->children.front().get())) {
            empty(*path.back());
            if (path.back()->leaf_node || path.back()->children.empty()) break;
        }
        if (path.size() > 1) {  // a leaf node of more than b leaves is cut first (an empty
            node_type& parent = *path[path.size() - 2];  // one goes)
            rebalance(parent);
            if (parent.children.empty())
                path.pop_back();
            else
                path.back() = parent.children.front().get();
        }
        if (path.back()->leaf_node) take_elements(*path.back(), out);
        bool bounded = false;
        for (std::size_t i = path.size() - 1; i-- > 0 && !bounded;)
            if (!path[i]->splitters.empty()) {
                bound = path[i]->splitters.front();
                bounded = true;
            }
        for (std::size_t i = path.size() - 1; i-- > 0;) rebalance(*path[i]);
        reshape_root();
        return bounded;
    }

    //! A sorting tree (after flush()): each leaf node's leaf blocks from left to right, a new
    //! sorted run at each block with run_start; a node of more than max_blocks blocks is
    //! sorted first (one run). Taken out of the tree (which is empty then).
    std::vector<std::vector<stored_block<RawBytes>>> take_leaf_groups(std::size_t max_blocks) {
        static_assert(sorting, "only a sorting tree has leaf nodes of runs");
        unstage(*root_);
        elements_.finish();
        sort_large_leaf_nodes(*root_, max_blocks);  // may throw: every block still in the tree
        std::vector<std::vector<stored_block<RawBytes>>> out;
        collect_groups(*root_, out);
        root_ = std::make_unique<node_type>();
        return out;
    }

    //! A sorting tree: a leaf node with more blocks is sorted and cut (file comment).
    std::size_t leaf_run_blocks() const { return std::max<std::size_t>(8, p_.leaf_node_blocks); }

    //! The leaves' blocks from left to right (the tree keeps them).
    std::vector<stored_block<RawBytes>> leaves() const {
        std::vector<stored_block<RawBytes>> out;
        visit(*root_, out);
        return out;
    }

    //! Levels of nodes (1: the root is a leaf node).
    std::size_t height() const {
        std::size_t h = 1;
        for (const node_type* n = root_.get(); !n->leaf_node; n = n->children.front().get()) ++h;
        return h;
    }

    //! Checks the shape (verify.hpp's verify_node); throws std::logic_error.
    void verify() const {
        const Key* unbounded = nullptr;
        verify_node(*root_, p_, cmp_, unbounded, unbounded, 1, true);
    }

    //! Requests gathered in RAM (the root's buffer).
    std::size_t pending() const { return pending_.size(); }
    //! The I/O counters.
    const io_counts& io() const { return io_; }
    //! The resolved sizes.
    const tree_params& params() const { return p_; }

private:
    //! Empties the root's buffer: its blocks on disk (older: a former child's buffer), then
    //! the requests in RAM, sorted as one chunk without a trip to the disk. With hold, an
    //! internal root of a dictionary holds back each child's last partial block (file comment).
    void empty_root(bool hold = false) {
        requests_.finish();
        empty_blocks(*root_);
        if (!pending_.empty()) {
            chunk_.swap(pending_);
            pending_.clear();
            sort_chunk(held_);
            held_ = 0;
            if (sorting && root_->leaf_node && root_->leaves.empty() && root_->staged.empty() &&
                chunk_.size() >= p_.chunk_items && p_.root_fanout > 1)
                seed_root();
            apply_chunk(*root_, hold && !root_->leaf_node);
        }
        settle(*root_);
        if (held_ > 0 && root_reshapes()) release_held();
        reshape_root();
    }

    //! Pushes the requests the root holds back (all of pending_ right after an emptying: they
    //! are sorted) to its children, partial blocks too.
    void release_held() {
        chunk_.swap(pending_);
        pending_.clear();
        held_ = 0;
        apply_chunk(*root_, false);
        settle(*root_);
    }

    //! True if reshape_root() would change the root (its held requests must go down first).
    bool root_reshapes() const {
        return root_->fanout() > root_fanout_max() ||
               (!root_->leaf_node && root_->children.size() <= 1);
    }

    //! A sorting tree's first full chunk (sorted, in chunk_) gives the root up to root_fanout
    //! leaf nodes, cut at evenly spaced keys of it (file comment); equal keys make fewer.
    void seed_root() {
        auto r = std::make_unique<node_type>();
        r->leaf_node = false;
        const std::size_t n = chunk_.size(), f = std::min(p_.root_fanout, n);
        for (std::size_t k = 1; k < f; ++k) {
            const Key& key = chunk_[k * n / f].key;
            if (cmp_(r->splitters.empty() ? chunk_.front().key : r->splitters.back(), key))
                r->splitters.push_back(key);
        }
        for (std::size_t k = 0; k <= r->splitters.size(); ++k)
            r->children.push_back(std::make_unique<node_type>());
        root_ = std::move(r);
    }

    //! Sorts chunk_ by (key, time): block quicksort (2.6x std::sort on random keys, see
    //! bench/README.md), its parts in parallel, where the requests may be copied bitwise (not
    //! std::pair's). Its first sorted_prefix requests (held back by the root) are sorted
    //! already: the rest is sorted and merged with them.
    void sort_chunk(std::size_t sorted_prefix) {
        const request_order<Key, Value, Cmp> less{cmp_};
        if constexpr (std::is_trivially_copyable_v<req>)
            algorithm::parallel_block_quicksort(
                chunk_.data() + sorted_prefix, chunk_.data() + chunk_.size(), less,
                unsigned(std::max(1, tbb::this_task_arena::max_concurrency())));
        else
            std::sort(chunk_.begin() + std::ptrdiff_t(sorted_prefix), chunk_.end(), less);
        if (sorted_prefix == 0 || sorted_prefix == chunk_.size()) return;
        chunk_.swap(scratch_);
        merge_runs({0, sorted_prefix, scratch_.size()});
    }

    //! Empties n's buffer completely, then its full children, then rebalances its children.
    void empty(node_type& n) {
        empty_blocks(n);
        settle(n);
    }

    //! Applies n's buffer blocks, chunk by chunk.
    void empty_blocks(node_type& n) {
        while (!n.buffer.empty()) {
            load_chunk(n);
            apply_chunk(n);
        }
    }

    //! Distributes the sorted chunk_ to n's children (holding back the partial last blocks
    //! with hold), or merges it into n's leaves.
    void apply_chunk(node_type& n, bool hold = false) {
        if (n.leaf_node && sorting)
            append_run(n, 0, chunk_.size());
        else if (n.leaf_node)
            merge_into_leaves<Key, Value, Cmp, RawBytes>(
                n, chunk_, cmp_, std::max<std::size_t>(1, p_.read_ahead / 2), elements_, io_,
                answer_);
        else
            distribute(n, hold);
    }

    //! After an emptying of internal node n: its full children are emptied, then rebalanced.
    void settle(node_type& n) {
        if (n.leaf_node) return;
        requests_.finish();
        for (auto& c : n.children)
            if (c->buffer.size() > p_.buffer_blocks) empty(*c);
        rebalance(n);
    }

    //! Loads a prefix of n's buffer (at most chunk_items, at least one block) into chunk_,
    //! sorted; the blocks are given back. The buffer holds the parent's pushes, each a sorted
    //! run: they are merged, not sorted again (one pass instead of log2(chunk) compares). A
    //! request stored without its time takes its position (records.hpp: stored_request).
    void load_chunk(node_type& n) { load_chunk(n, io_.buffer_read); }
    //! load_chunk, counting the blocks read in counter.
    void load_chunk(node_type& n, std::uint64_t& counter) {
        std::size_t k = 0, items = 0;
        while (k < n.buffer.size() && (k == 0 || items + n.buffer[k].count <= p_.chunk_items))
            items += n.buffer[k++].count;
        std::vector<stored_block<RawBytes>> blocks(n.buffer.begin(), n.buffer.begin() + k);
        n.buffer.erase(n.buffer.begin(), n.buffer.begin() + k);
        counter += k;
        std::vector<std::size_t> starts;  // where each sorted run begins in chunk_
        for (std::size_t i = 0, at = 0; i < k; at += blocks[i++].count)
            if (i == 0 || blocks[i].run_start) starts.push_back(at);
        starts.push_back(items);
        scratch_.clear();
        scratch_.reserve(items);
        {
            block_reader<stored, RawBytes> r(blocks, p_.read_ahead, true, io_);
            const stored* p = nullptr;
            std::size_t count = 0;
            while (r.next(p, count)) stored::append(p, count, scratch_);
        }
        merge_runs(starts);
    }

    //! chunk_ = the sorted runs of scratch_ (their begins in starts, then its end) merged: in
    //! one pass, in parallel parts (algorithm::multiway_merge).
    void merge_runs(const std::vector<std::size_t>& starts) {
        if (starts.size() <= 2) {
            chunk_.swap(scratch_);
            return;
        }
        std::vector<algorithm::sequence<req>> runs;
        for (std::size_t i = 0; i + 1 < starts.size(); ++i)
            runs.push_back({scratch_.data() + starts[i], scratch_.data() + starts[i + 1]});
        chunk_.resize(scratch_.size());
        if (!workers_)
            workers_ = std::make_unique<algorithm::workers>(algorithm::workers::in_caller_arena(
                unsigned(std::max(1, tbb::this_task_arena::max_concurrency()))));
        algorithm::multiway_merge(runs, chunk_.data(), chunk_.size(),
                                  request_order<Key, Value, Cmp>{cmp_}, *workers_);
    }

    //! Appends each child's part of chunk_ to its buffer (one block push per part). With hold,
    //! a part's last partial block goes back to pending_ while root_hold_items allow it.
    void distribute(node_type& n, bool hold) {
        std::size_t i = 0;
        while (i < chunk_.size()) {
            const std::size_t c = child_index(n, chunk_[i].key, cmp_);
            std::size_t j = i + 1;
            if (c == n.splitters.size())
                j = chunk_.size();
            else
                while (j < chunk_.size() && cmp_(chunk_[j].key, n.splitters[c])) ++j;
            if (sorting && n.children[c]->leaf_node) {
                ++io_.block_pushes;
                append_run(*n.children[c], i, j);
                i = j;
                continue;
            }
            push_part(*n.children[c], i, hold ? hold_tail(i, j) : j);
            i = j;
        }
    }

    //! Writes chunk_[i, j) to child's buffer as one sorted run (nothing if it is empty).
    void push_part(node_type& child, std::size_t i, std::size_t j) {
        if (i == j) return;
        ++io_.block_pushes;
        auto& pushed = child.leaf_node ? io_.pushed_leaf_node : io_.pushed_internal;
        for (std::size_t k = i; k < j; k += stored_block_items) {
            child.buffer.push_back(
                requests_.write_as(chunk_.data() + k, std::min(stored_block_items, j - k),
                                   [](const req& r) { return stored::store(r); }));
            child.buffer.back().run_start = k == i;
            ++pushed;
        }
        io_.pushed_items += j - i;
    }

    //! Holds the last partial block of the part chunk_[i, j) back in pending_ if
    //! root_hold_items allow it; returns where the part to push ends.
    std::size_t hold_tail(std::size_t i, std::size_t j) {
        const std::size_t rest = (j - i) % stored_block_items;
        if (rest == 0 || held_ + rest > p_.root_hold_items) return j;
        pending_.insert(pending_.end(), chunk_.begin() + std::ptrdiff_t(j - rest),
                        chunk_.begin() + std::ptrdiff_t(j));
        held_ += rest;
        return j - rest;
    }

    //! A sorting tree: merges chunk_[i, j) (sorted) with leaf node n's staged keys and
    //! appends the full blocks to its leaves as one run; the rest (less than a block) stays
    //! staged while the staging has room, else it ends the run as a partial block.
    void append_run(node_type& n, std::size_t i, std::size_t j) {
        const req* p = chunk_.data() + i;
        std::size_t count = j - i;
        if (!n.staged.empty()) {
            merge_staged(n, i, j);
            p = scratch_.data();
            count = scratch_.size();
        }
        staged_items_ -= n.staged.size();
        const std::size_t rest = count % request_block_items;
        const std::size_t end = staged_items_ + rest <= p_.stage_items ? count - rest : count;
        write_run(n, p, end);
        std::vector<Key> keep;  // exactly as large as needed
        keep.reserve(count - end);
        for (std::size_t k = end; k < count; ++k) keep.push_back(p[k].key);
        n.staged.swap(keep);
        staged_items_ += n.staged.size();
    }

    //! A sorting tree: scratch_ = leaf node n's staged keys merged with chunk_[i, j) (the staged
    //! ones first among equal keys: they came earlier).
    void merge_staged(const node_type& n, std::size_t i, std::size_t j) {
        const std::vector<Key>& s = n.staged;
        scratch_.resize(s.size() + (j - i));
        std::size_t a = 0, w = 0;
        for (; a < s.size() && i < j; ++w)
            scratch_[w] = cmp_(chunk_[i].key, s[a]) ? chunk_[i++] : staged_request(s[a++]);
        for (; a < s.size(); ++w) scratch_[w] = staged_request(s[a++]);
        std::copy(chunk_.begin() + i, chunk_.begin() + j, scratch_.begin() + w);
    }

    //! A staged key as a request (only a sorting tree stages keys).
    static req staged_request(const Key& key) {
        req r{};
        r.key = key;
        return r;
    }

    //! A sorting tree: writes p[0, count) (sorted) to leaf node n's leaves as one run.
    void write_run(node_type& n, const req* p, std::size_t count) {
        for (std::size_t k = 0; k < count; k += request_block_items) {
            const std::size_t c = std::min(request_block_items, count - k);
            leaf<Key, RawBytes> l{
                elements_.write_as(p + k, c, [](const req& r) { return element_of(r); }), p[k].key,
                k != 0 && same_key(cmp_, p[k - 1].key, p[k].key)};
            l.block.run_start = k == 0;
            n.leaves.push_back(l);
            ++io_.leaf_written;
        }
    }

    //! A sorting tree: writes every leaf node's staged keys as its last run.
    void unstage(node_type& n) {
        if (n.leaf_node && !n.staged.empty()) {
            leaf<Key, RawBytes> l{elements_.write_as(n.staged.data(), n.staged.size(),
                                                     [](const Key& k) { return elem{k}; }),
                                  n.staged.front(), false};
            l.block.run_start = true;
            n.leaves.push_back(l);
            ++io_.leaf_written;
            staged_items_ -= n.staged.size();
            n.staged = std::vector<Key>();
        }
        for (auto& c : n.children) unstage(*c);
    }

    //! Sorting tree: the runs of leaf node n (it has at least one leaf).
    static std::size_t runs(const node_type& n) {
        std::size_t r = 1;
        for (std::size_t i = 1; i < n.leaves.size(); ++i) r += n.leaves[i].block.run_start ? 1 : 0;
        return r;
    }

    //! Sorting tree: merges the runs of leaf node n into one: its largest run stays, the others
    //! are loaded chunk by chunk and merged into it (usually one chunk: one read and one write
    //! of the node).
    void sort_leaf_node(node_type& n) {
        if (n.leaves.empty() || runs(n) < 2) return;
        elements_.finish();                   // the runs are read back
        std::size_t best = 0, best_size = 0;  // the largest run: [best, best + best_size)
        for (std::size_t i = 0; i < n.leaves.size();) {
            std::size_t j = i + 1;
            while (j < n.leaves.size() && !n.leaves[j].block.run_start) ++j;
            if (j - i > best_size) best = i, best_size = j - i;
            i = j;
        }
        std::vector<leaf<Key, RawBytes>> base(n.leaves.begin() + best,
                                              n.leaves.begin() + best + best_size);
        node_type rest;  // the other runs, as a buffer to load
        for (std::size_t i = 0; i < n.leaves.size(); ++i)
            if (i < best || i >= best + best_size) rest.buffer.push_back(n.leaves[i].block);
        rest.buffer.front().run_start = true;
        n.leaves = std::move(base);
        n.leaves.front().block.run_start = false;
        try {
            while (!rest.buffer.empty()) {
                load_chunk(rest, io_.consolidated);
                merge_into_leaves<Key, Value, Cmp, RawBytes>(
                    n, chunk_, cmp_, std::max<std::size_t>(1, p_.read_ahead / 2), elements_, io_,
                    answer_);
            }
        } catch (...) {
            rest.free_all();  // the runs not loaded yet are out of the tree
            throw;
        }
        for (auto& l : n.leaves) l.block.run_start = false;
        n.leaves.front().block.run_start = true;
    }

    //! Sorting tree: sorts and halves leaf node i of n when it has more than leaf_run_blocks()
    //! blocks (file comment); false if that was not due or not possible.
    bool rebalance_runs(node_type& n, std::size_t i) {
        const std::size_t most = leaf_run_blocks();
        if (n.children[i]->fanout() <= most) return false;
        sort_leaf_node(*n.children[i]);
        const std::size_t before = n.children.size();
        if (!split_child(n, i, (most + 1) / 2)) return false;
        const std::size_t parts = n.children.size() - before + 1;
        for (std::size_t k = i; k < i + parts; ++k)
            n.children[k]->leaves.front().block.run_start = true;  // each part: one run
        share_staged(n, i, parts);
        return true;
    }

    //! Sorting tree: gives the staged keys of child i of n to the parts [i, i + parts) that it
    //! was cut into, by their splitters.
    void share_staged(node_type& n, std::size_t i, std::size_t parts) {
        std::vector<Key> s;
        s.swap(n.children[i]->staged);
        std::size_t at = 0;
        for (std::size_t k = i; k < i + parts; ++k) {
            std::size_t end = k + 1 == i + parts ? s.size() : at;
            while (end < s.size() && cmp_(s[end], n.splitters[k])) ++end;
            n.children[k]->staged.assign(s.begin() + at, s.begin() + end);
            at = end;
        }
    }

    //! Splits and fuses n's children until each has a to b children (file comment). A key
    //! with more than b leaves of duplicates may leave a leaf node that cannot be cut at a
    //! key boundary: the rounds are bounded so that such a node stays as it is.
    void rebalance(node_type& n) {
        for (std::size_t round = 0, most = 1000000; round < most; ++round)
            if (!rebalance_step(n)) return;
    }

    //! One split or fusion (or the emptying that must precede it); false if none was due.
    bool rebalance_step(node_type& n) {
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            node_type& c = *n.children[i];
            if (c.fanout() == 0 && c.buffer.empty() && c.staged.empty()) {  // nothing below:
                remove_child(n, i);  // its range goes to a neighbour (a = 1 would keep it)
                return true;
            }
            if (sorting && c.leaf_node) {
                if (rebalance_runs(n, i)) return true;
                continue;
            }
            if (c.fanout() > p_.fanout_max) {
                if (!c.buffer.empty()) {
                    empty(c);
                    return true;
                }
                if (split_child(n, i, p_.fanout_max)) return true;
            } else if (c.fanout() < p_.fanout_min && n.children.size() > 1) {
                if (fix_underflow(n, i)) return true;
            }
        }
        return false;
    }

    //! Removes child i (empty, with an empty buffer) of n; a neighbour takes its key range.
    static void remove_child(node_type& n, std::size_t i) {
        n.children.erase(n.children.begin() + i);
        if (!n.splitters.empty()) n.splitters.erase(n.splitters.begin() + (i > 0 ? i - 1 : 0));
    }

    //! Fuses child i (with fewer than a children) with a neighbour, or shares their children
    //! out if a fusion would have more than b (right neighbour first, both buffers emptied
    //! first). False if neither works (cuts between different keys too far off the middle):
    //! the child stays as it is.
    bool fix_underflow(node_type& n, std::size_t i) {
        return (i + 1 < n.children.size() && fix_pair(n, i)) || (i > 0 && fix_pair(n, i - 1));
    }

    //! Fuses or shares children j and j + 1 (fix_underflow); false if neither works.
    bool fix_pair(node_type& n, std::size_t j) {
        for (std::size_t k : {j, j + 1})
            if (!n.children[k]->buffer.empty()) {
                empty(*n.children[k]);
                return true;
            }
        const std::size_t total = n.children[j]->fanout() + n.children[j + 1]->fanout();
        if (total <= p_.fanout_max) {
            fuse_children(n, j);
            return true;
        }
        if (share_cut(n, j, p_.fanout_min, p_.fanout_max) == 0) return false;
        fuse_children(n, j);
        split_child(n, j, (total + 1) / 2);
        return true;
    }

    //! Empties every buffer of n's subtree.
    void flush_node(node_type& n) {
        empty(n);
        if (n.leaf_node) return;
        for (auto& c : n.children) flush_node(*c);
        rebalance(n);
    }

    //! A root with more than b children gets a parent (then splits); an internal root with one
    //! child and an empty buffer is replaced by the child.
    void reshape_root() {
        while (root_->fanout() > root_fanout_max()) {
            auto r = std::make_unique<node_type>();
            r->leaf_node = false;
            r->children.push_back(std::move(root_));
            root_ = std::move(r);
            rebalance(*root_);
            if (root_->children.size() == 1) break;  // it could not be cut
        }
        while (!root_->leaf_node && root_->children.size() == 1 && root_->buffer.empty())
            root_ = std::move(root_->children.front());
        if (!root_->leaf_node && root_->children.empty() && root_->buffer.empty())
            root_ = std::make_unique<node_type>();  // everything went
    }

    //! The most children of the root: an internal root may have root_fanout (a sorting tree's:
    //! leaf nodes).
    std::size_t root_fanout_max() const {
        const std::size_t leaf_root = sorting ? leaf_run_blocks() : p_.fanout_max;
        return root_->leaf_node ? leaf_root : std::max(p_.fanout_max, p_.root_fanout);
    }

    //! Appends the elements of leaf node n to out and gives its leaves back.
    void take_elements(node_type& n, std::vector<elem>& out) {
        std::vector<stored_block<RawBytes>> blocks;
        for (const auto& l : n.leaves) blocks.push_back(l.block);
        n.leaves.clear();
        block_reader<elem, RawBytes> r(blocks, std::max<std::size_t>(1, p_.read_ahead), true, io_);
        const elem* p = nullptr;
        std::size_t count = 0;
        while (r.next(p, count)) out.insert(out.end(), p, p + count);
    }

    void sort_large_leaf_nodes(node_type& n, std::size_t max_blocks) {
        if (n.leaf_node && n.leaves.size() > max_blocks) {
            sort_leaf_node(n);
            ++io_.sorted_at_flush;
        }
        for (auto& c : n.children) sort_large_leaf_nodes(*c, max_blocks);
    }
    static void collect_groups(node_type& n,
                               std::vector<std::vector<stored_block<RawBytes>>>& out) {
        if (n.leaf_node && !n.leaves.empty()) {
            out.emplace_back();
            for (const auto& l : n.leaves) out.back().push_back(l.block);
            out.back().front().run_start = true;
            n.leaves.clear();
        }
        for (auto& c : n.children) collect_groups(*c, out);
    }
    static void visit(const node_type& n, std::vector<stored_block<RawBytes>>& out) {
        for (const auto& l : n.leaves) out.push_back(l.block);
        for (const auto& c : n.children) visit(*c, out);
    }

    Cmp cmp_;
    tree_params p_;
    answer_fn answer_;
    io_counts io_;
    std::unique_ptr<node_type> root_;
    block_writer<stored, RawBytes> requests_;
    block_writer<elem, RawBytes> elements_;
    std::vector<req> pending_;
    std::vector<req> chunk_;
    std::vector<req> scratch_;      // runs to merge (loaded, or the root's); merge_staged's output
    std::size_t staged_items_ = 0;  // a sorting tree: keys staged in all leaf nodes
    std::size_t held_ = 0;          // a dictionary: requests held back, the first of pending_
    std::unique_ptr<algorithm::workers> workers_;  // merge_runs' multiway merge
};

}  // namespace emflow::detail::buffer_tree
