// SPDX-License-Identifier: BSL-1.0
// emflow/buffer_tree.hpp: the buffer tree (Arge; as implemented by Hutchinson, Maheshwari, Sack
// and Velicescu), a batched external-memory multimap. Inserts, erases and look-ups are
// time-stamped and applied lazily: they travel down an (a,b)-tree in the buffers of its nodes
// (about m/2 blocks each, on STXXL's block manager) and take effect when they reach a leaf. A
// look-up's answers are produced there and leave through the pull side as (query, result)
// records, in the order the tree produces them; flush() empties every buffer, so that every
// pending answer is delivered (flush(f) hands them to f instead, without the answer queue).
//
//   emflow::buffer_tree<std::uint64_t, std::uint64_t> t;       // 64 MiB, (a, b) = (m/32, m/8)
//   t.insert(7, 70);  auto q = t.lookup(7);  t.erase(7);  t.flush();
//   for (; !t.empty(); ++t) use((*t).query == q, (*t).found, (*t).value);
//
// Semantics are those of std::multimap applied in operation order: insert adds a pair (equal
// keys keep insertion order), erase(k) removes every pair with key k (also none), lookup(k)
// reports every pair with key k at its time: one answer per pair, in insertion order, or one
// answer with found == false.
//
// Memory: memory_bytes bounds the buffers (the root's buffer, kept in RAM, a chunk of requests
// sorted at once and its merge scratch, m/4 blocks each; reads and writes in flight; the
// answers' head and tail). On disk a request of a value of 8 bytes or more is stored without
// its time stamp (detail/buffer_tree/records.hpp: 24 bytes for 8-byte keys and values). The
// root may have up to max(b, m/4) children and holds back each one's partial last block (at
// most m/8 blocks, within its buffer). The tree's skeleton
// (splitters and block lists, about 40 bytes per block of data) and the elements of one key
// with requests in a chunk are outside. Errors: the comparator's or the disk's exceptions reach
// the caller and leave the tree failed (every later call throws std::logic_error); its blocks
// are given back when it is destroyed.
#pragma once

#include <emflow/detail/buffer_tree/answer_queue.hpp>
#include <emflow/detail/buffer_tree/block_io.hpp>
#include <emflow/detail/buffer_tree/params.hpp>
#include <emflow/detail/buffer_tree/records.hpp>
#include <emflow/detail/buffer_tree/tree.hpp>
#include <emflow/detail/buffer_tree/verify.hpp>
#include <emflow/external_memory.hpp>
#include <emflow/flow_runtime.hpp>
#include <emflow/memory_budget.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>

namespace emflow {

//! Sizes of a buffer tree; 0 picks the paper's tuned value (Hutchinson et al., sec. 3.6.2).
struct buffer_tree_options {
    std::size_t memory_bytes = std::size_t(64) << 20;  //!< M: what the buffers may hold
    std::size_t fanout_max = 0;                        //!< b; 0: m/8 (m = M / block size)
    std::size_t fanout_min = 0;                        //!< a; 0: b/4
    std::size_t buffer_blocks = 0;  //!< a buffer with more blocks is emptied; 0: m/2
};

//! One answer of a look-up.
template <class Key, class Value>
struct buffer_tree_answer {
    std::uint64_t query;  //!< the ticket lookup() returned
    Key key;              //!< the key looked up
    Value value;          //!< a value found (default-constructed if none)
    bool found;           //!< false: the key had no pair at the look-up's time
};

//! Counters of a buffer tree's work.
struct buffer_tree_stats {
    std::uint64_t blocks_read = 0;       //!< block reads
    std::uint64_t blocks_written = 0;    //!< block writes
    std::uint64_t block_pushes = 0;      //!< parts of a buffer pushed to a child (Figure 4)
    std::size_t height = 0;              //!< levels of nodes (1: the root is a leaf node)
    std::uint64_t pushed_internal = 0;   //!< blocks written to internal nodes' buffers
    std::uint64_t pushed_leaf_node = 0;  //!< blocks written to leaf nodes' buffers
    std::uint64_t pushed_items = 0;      //!< items in the blocks pushed to buffers
    std::uint64_t buffer_read = 0;       //!< buffer blocks read while emptying
    std::uint64_t leaf_written = 0;      //!< leaf blocks written
    std::uint64_t leaf_read = 0;         //!< leaf blocks read while merging or sorting them
    //! Tree sort: leaf nodes sorted at the end of the input because the reading's memory could
    //! not merge their runs.
    std::uint64_t sorted_at_flush = 0;
};

//! Batched external multimap from Key to Value ordered by Cmp, in blocks of BlockBytes.
template <class Key, class Value, class Cmp = std::less<Key>,
          std::size_t BlockBytes = std::size_t(64) << 10>
class buffer_tree {
    static_assert(detail::buffer_tree::storable_v<Key> && detail::buffer_tree::storable_v<Value>,
                  "buffer_tree: keys and values are stored as bytes: they must be trivially "
                  "copy-constructible, trivially destructible and default-constructible");
    using engine = detail::buffer_tree::tree<Key, Value, Cmp, BlockBytes>;
    using req = typename engine::req;
    using elem = typename engine::elem;

public:
    using value_type = buffer_tree_answer<Key, Value>;      //!< what the pull side yields
    static constexpr std::size_t block_bytes = BlockBytes;  //!< B in bytes

    //! The least memory_bytes: 32 blocks (m >= 32 keeps a >= 1 and b >= 4 by default).
    static constexpr std::size_t minimum_memory() {
        return detail::buffer_tree::minimum_memory(BlockBytes);
    }

    //! An empty tree; throws std::invalid_argument for sizes it cannot work with.
    explicit buffer_tree(Cmp cmp = Cmp(), buffer_tree_options opt = {})
        : opt_(opt), answers_(std::make_unique<answer_store>(io_)) {
        ensure_external_memory();
        engine_ = std::make_unique<engine>(cmp, resolve(opt),
                                           [this](const req& r, const elem* e) { answer(r, e); });
    }

    buffer_tree(const buffer_tree&) = delete;
    buffer_tree& operator=(const buffer_tree&) = delete;

    //! Inserts (key, value); returns the operation's ticket.
    std::uint64_t insert(const Key& key, const Value& value) {
        return add(key, value, detail::buffer_tree::op_kind::insert);
    }
    //! Erases every pair with key; returns the operation's ticket.
    std::uint64_t erase(const Key& key) {
        return add(key, Value(), detail::buffer_tree::op_kind::erase);
    }
    //! Looks key up; its answers carry the returned ticket.
    std::uint64_t lookup(const Key& key) {
        return add(key, Value(), detail::buffer_tree::op_kind::lookup);
    }
    //! Applies every operation so far: all their answers are then waiting.
    void flush() {
        guarded([&] { engine_->flush(); });
    }
    //! Applies every operation so far like flush(), but hands every answer to f(const
    //! value_type&) instead of keeping it: first those waiting, then each as the tree produces
    //! it, in the pull side's order; none is waiting afterwards. Answers that f takes skip the
    //! answer queue, whose blocks between head and tail are on disk (a flush's answers at a
    //! small budget: written and read once more). f must not call this tree (a call from f
    //! throws std::logic_error). An exception from f reaches the caller and leaves the tree
    //! failed.
    template <class F>
    void flush(F&& f) {
        static_assert(std::is_invocable_v<F&, const value_type&>,
                      "buffer_tree::flush(f): f must take const buffer_tree_answer<Key, Value>&");
        guarded([&] {
            const std::function<void(const value_type&)> sink = std::ref(f);
            sink_ = &sink;
            struct unset {
                const std::function<void(const value_type&)>*& s;
                ~unset() { s = nullptr; }
            } restore{sink_};
            for (std::size_t n; (n = answers_->length()) > 0; answers_->pop(n))
                for (std::size_t i = 0; i < n; ++i) f(answers_->begin()[i]);
            engine_->flush();
        });
    }

    //! Calls f(key, value) for every pair in order (call flush() first: pending operations are
    //! not seen).
    template <class F>
    void for_each(F&& f) const {
        check();
        auto blocks = engine_->leaves();
        detail::buffer_tree::block_reader<elem, BlockBytes> r(
            blocks, std::max<std::size_t>(1, engine_->params().read_ahead), false, io_);
        const elem* p = nullptr;
        std::size_t n = 0;
        while (r.next(p, n))
            for (std::size_t i = 0; i < n; ++i) f(p[i].key, p[i].value);
    }

    // ---- pull side: the answers produced so far ----
    //! Declares the tree's memory to the run (fixed, present in every phase).
    void start(run_context& ctx) {
        if (run_ == ctx.id()) return;
        run_ = ctx.id();
        ctx.memory().declare_run_long("buffer tree", memory_demand::fixed(opt_.memory_bytes));
    }
    //! True if no answer is waiting (more may come with later operations or flush()).
    bool empty() { return batch_length() == 0; }
    //! The next answer.
    const value_type& operator*() { return *batch_begin(); }
    //! Drops the next answer.
    buffer_tree& operator++() { return *this += 1; }
    //! Answers readily available at batch_begin().
    std::size_t batch_length() {
        check_outside_flush();
        return answers_->length();
    }
    //! The available answers.
    const value_type* batch_begin() {
        check_outside_flush();
        return answers_->begin();
    }
    //! Drops n <= batch_length() answers.
    buffer_tree& operator+=(std::size_t n) {
        check_outside_flush();
        answers_->pop(n);
        return *this;
    }
    //! Answers waiting.
    std::size_t answers_waiting() const {
        check_outside_flush();
        return answers_->size();
    }

    //! Checks the tree's shape (leaf nodes at one depth, a to b children, keys in order); throws
    //! std::logic_error naming what is broken. For tests; it reads no block.
    void verify() const {
        check();
        engine_->verify();
    }

    //! Work counters.
    buffer_tree_stats stats() const {
        const auto& a = engine_->io();
        return {a.blocks_read + io_.blocks_read, a.blocks_written + io_.blocks_written,
                a.block_pushes, engine_->height()};
    }

private:
    using answer_store = detail::buffer_tree::answer_queue<value_type, BlockBytes>;

    static detail::buffer_tree::tree_params resolve(const buffer_tree_options& o) {
        return detail::buffer_tree::resolve_dictionary_params(
            o.memory_bytes, BlockBytes, engine::request_block_items, o.fanout_max, o.fanout_min,
            o.buffer_blocks);
    }

    std::uint64_t add(const Key& key, const Value& value, detail::buffer_tree::op_kind op) {
        const std::uint64_t t = time_++;
        guarded([&] { engine_->add(detail::buffer_tree::make_request(key, value, t, op)); });
        return t;
    }

    void answer(const req& r, const elem* e) {
        const std::uint64_t q = detail::buffer_tree::ticket_of(r);
        const value_type a =
            e ? value_type{q, r.key, e->value, true} : value_type{q, r.key, Value(), false};
        if (sink_)
            (*sink_)(a);
        else
            answers_->push(a);
    }

    template <class F>
    void guarded(F&& f) {
        check();
        try {
            f();
        } catch (...) {
            failed_ = true;
            throw;
        }
    }
    void check() const {
        check_outside_flush();
        if (failed_)
            throw std::logic_error("emflow: buffer tree used after an operation on it failed");
    }
    void check_outside_flush() const {
        if (sink_)
            throw std::logic_error("emflow: buffer tree called from the f of its own flush(f)");
    }

    buffer_tree_options opt_;
    mutable detail::buffer_tree::io_counts io_;  // the answers' and for_each's I/O
    std::unique_ptr<answer_store> answers_;
    std::unique_ptr<engine> engine_;
    const std::function<void(const value_type&)>* sink_ = nullptr;  // flush(f)'s f meanwhile
    std::uint64_t time_ = 0;
    std::uint64_t run_ = ~std::uint64_t(0);
    bool failed_ = false;
};

}  // namespace emflow
