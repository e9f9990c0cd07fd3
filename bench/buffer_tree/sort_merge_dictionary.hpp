// SPDX-License-Identifier: BSL-1.0
// bench/buffer_tree/sort_merge_dictionary.hpp: the batched dictionary done by sorting, the
// competitor of dictionary_bench: the set is one sorted run on disk; a batch of operations is
// sorted by (key, time) with emflow's sort node and merged with the run, which writes the new
// run and hands the look-ups' answers to a consumer (as the tree's flush(f) does), applying each
// key's operations in time order with std::multimap's semantics (the buffer tree's).
#pragma once

#include <emflow/flow.hpp>

#include <stxxl/vector>

#include <cstdint>
#include <utility>
#include <vector>

namespace dict_bench {

using u64 = std::uint64_t;

//! A pair of the set.
struct pair_kv {
    u64 key;    //!< key
    u64 value;  //!< value
};

//! Operation kinds.
enum class op_kind : std::uint32_t { insert, erase, lookup };

//! One operation of a batch: time is its position in the batch.
struct operation {
    u64 key;       //!< key
    u64 value;     //!< inserted value
    u64 time;      //!< position in the batch (a look-up's ticket)
    op_kind kind;  //!< what it does
};

//! One look-up answer.
struct answer {
    u64 query;  //!< the look-up's time
    u64 key;    //!< key looked up
    u64 value;  //!< value found (0 if none)
    u64 found;  //!< 1 if found
};

using set_vector = stxxl::vector<pair_kv, 1, stxxl::lru_pager<1>, 65536>;

//! (key, value) order: equal keys keep insertion order (values are insertion times).
struct pair_less {
    bool operator()(const pair_kv& a, const pair_kv& b) const {
        return a.key < b.key || (a.key == b.key && a.value < b.value);
    }
};
//! (key, time) order.
struct operation_less {
    bool operator()(const operation& a, const operation& b) const {
        return a.key < b.key || (a.key == b.key && a.time < b.time);
    }
};

//! Merges sorted operations into the sorted run `from`, writing the run `to` and handing the
//! answers to Consume(const answer&).
template <class Consume>
class batch_merger {
public:
    //! Reads from, writes to (empty), answers to consume.
    batch_merger(const set_vector& from, set_vector& to, Consume& consume)
        : in_(from.cbegin(), from.cend()), out_(to), consume_(consume) {}

    //! Applies the next operation in (key, time) order.
    void apply(const operation& o) {
        if (!grouped_ || o.key != key_) start_group(o.key);
        if (o.kind == op_kind::insert) {
            same_.push_back({o.key, o.value});
        } else if (o.kind == op_kind::erase) {
            same_.clear();
        } else {
            for (const pair_kv& p : same_) consume_(answer{o.time, o.key, p.value, 1});
            if (same_.empty()) consume_(answer{o.time, o.key, 0, 0});
        }
    }
    //! Copies the rest of the run; the new run is complete.
    void finish() {
        close_group();
        for (; !in_.empty(); ++in_) out_ << *in_;
        out_.finish();
    }

private:
    void start_group(u64 key) {
        close_group();
        for (; !in_.empty() && in_->key < key; ++in_) out_ << *in_;
        for (; !in_.empty() && in_->key == key; ++in_) same_.push_back(*in_);
        key_ = key;
        grouped_ = true;
    }
    void close_group() {
        for (const pair_kv& p : same_) out_ << p;
        same_.clear();
    }

    set_vector::bufreader_type in_;
    set_vector::bufwriter_type out_;
    Consume& consume_;
    std::vector<pair_kv> same_;  // the current key's pairs
    u64 key_ = 0;
    bool grouped_ = false;
};

//! The set as a sorted run: built by sorting, changed by sorted batches.
class sort_merge_dictionary {
public:
    //! An empty set; sorts within budget bytes.
    explicit sort_merge_dictionary(std::size_t budget) : budget_(budget) {}

    //! Builds the set from n pairs make() (sorted with the sort node, then written).
    template <class Make>
    void build(u64 n, Make make) {
        set_vector::bufwriter_type w(set_);
        emflow::materialize(
            emflow::generate(n, std::move(make)) | emflow::sort(pair_less(), budget_),
            emflow::sink<pair_kv>([&](const pair_kv& p) { w << p; }));
        w.finish();
    }

    //! Applies n operations make() (times 0 .. n-1): sorts them and merges, handing the answers
    //! to consume(const answer&).
    template <class Make, class Consume>
    void apply(u64 n, Make make, Consume consume) {
        set_vector next;
        batch_merger<Consume> m(set_, next, consume);
        emflow::materialize(
            emflow::generate(n, std::move(make)) | emflow::sort(operation_less(), budget_),
            emflow::sink<operation>([&](const operation& o) { m.apply(o); }));
        m.finish();
        set_.swap(next);
    }

    //! Pairs in the set.
    u64 size() const { return set_.size(); }

private:
    std::size_t budget_;
    set_vector set_;
};

}  // namespace dict_bench
