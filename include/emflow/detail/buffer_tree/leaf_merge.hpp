// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/leaf_merge.hpp: emptying a leaf node's buffer: its sorted requests
// are merged with the elements of its leaves, applied key by key in time order (inserts append,
// an erase removes every element of its key, a look-up reports them), and the result is written
// back as full leaves.
#pragma once

#include <emflow/detail/buffer_tree/block_io.hpp>
#include <emflow/detail/buffer_tree/node.hpp>
#include <emflow/detail/buffer_tree/records.hpp>

#include <cstddef>
#include <vector>

namespace emflow::detail::buffer_tree {

//! Writes elements as full leaves, noting where a leaf continues the previous one's key.
template <class Key, class Value, class Cmp, std::size_t RawBytes>
class leaf_writer {
    using elem = element<Key, Value>;

public:
    //! Appends the leaves to out.
    leaf_writer(block_writer<elem, RawBytes>& w, std::vector<leaf<Key, RawBytes>>& out,
                const Cmp& cmp)
        : w_(w), out_(out), cmp_(cmp) {
        staged_.reserve(block_writer<elem, RawBytes>::capacity);
    }
    //! Appends one element.
    void add(const elem& e) {
        staged_.push_back(e);
        if (staged_.size() == block_writer<elem, RawBytes>::capacity) flush();
    }
    //! Writes the last, partial leaf.
    void flush() {
        if (staged_.empty()) return;
        leaf<Key, RawBytes> l{w_.write(staged_.data(), staged_.size()), staged_.front().key,
                              have_last_ && same_key(cmp_, last_, staged_.front().key)};
        out_.push_back(l);
        last_ = staged_.back().key;
        have_last_ = true;
        staged_.clear();
    }

private:
    block_writer<elem, RawBytes>& w_;
    std::vector<leaf<Key, RawBytes>>& out_;
    const Cmp& cmp_;
    std::vector<elem> staged_;
    Key last_{};
    bool have_last_ = false;
};

//! Reads the elements of a list of leaves one by one (freeing their blocks).
template <class Key, class Value, std::size_t RawBytes>
class element_cursor {
    using elem = element<Key, Value>;

public:
    //! Reads the blocks of list with lookahead reads in flight.
    element_cursor(const std::vector<stored_block<RawBytes>>& list, std::size_t lookahead,
                   io_counts& io)
        : reader_(list, lookahead, true, io) {
        advance();
    }
    //! True while an element is current.
    bool valid() const { return pos_ < count_; }
    //! The current element.
    const elem& operator*() const { return items_[pos_]; }
    //! Moves to the next element.
    void advance() {
        if (pos_ + 1 < count_) {
            ++pos_;
            return;
        }
        pos_ = count_ = 0;
        while (count_ == 0 && reader_.next(items_, count_)) {
        }
    }

private:
    block_reader<elem, RawBytes> reader_;
    const elem* items_ = nullptr;
    std::size_t count_ = 0, pos_ = 0;
};

//! Applies reqs (sorted by key, then time) to the leaves of n and rewrites them; emit(req, e)
//! answers a look-up with one element e, emit(req, nullptr) with none.
template <class Key, class Value, class Cmp, std::size_t RawBytes, class Emit>
void merge_into_leaves(node<Key, RawBytes>& n, const std::vector<request<Key, Value>>& reqs,
                       const Cmp& cmp, std::size_t lookahead,
                       block_writer<element<Key, Value>, RawBytes>& w, io_counts& io, Emit&& emit) {
    using elem = element<Key, Value>;
    std::vector<stored_block<RawBytes>> old;
    old.reserve(n.leaves.size());
    for (const auto& l : n.leaves) old.push_back(l.block);
    n.leaves.clear();  // the old blocks belong to the cursor now, which frees them
    io.leaf_read += old.size();
    element_cursor<Key, Value, RawBytes> cur(old, lookahead, io);
    leaf_writer<Key, Value, Cmp, RawBytes> out(w, n.leaves, cmp);
    std::vector<elem> same;  // the elements of the current key
    std::size_t i = 0;
    while (cur.valid() || i < reqs.size()) {
        if (i == reqs.size() || (cur.valid() && cmp((*cur).key, reqs[i].key))) {
            out.add(*cur);
            cur.advance();
            continue;
        }
        const Key key = reqs[i].key;
        std::size_t end = i;
        bool inserts_only = true;
        for (; end < reqs.size() && !cmp(key, reqs[end].key); ++end)
            inserts_only = inserts_only && reqs[end].op == op_kind::insert;
        if (inserts_only) {  // streamed: any number of copies of a key in constant memory
            for (; cur.valid() && !cmp(key, (*cur).key); cur.advance()) out.add(*cur);
            for (; i < end; ++i) out.add(element_of(reqs[i]));
            continue;
        }
        same.clear();
        for (; cur.valid() && !cmp(key, (*cur).key); cur.advance()) same.push_back(*cur);
        for (; i < end; ++i) {
            const auto& r = reqs[i];
            if (r.op == op_kind::insert) {
                same.push_back(element_of(r));
            } else if (r.op == op_kind::erase) {
                same.clear();
            } else {
                for (const auto& e : same) emit(r, &e);
                if (same.empty()) emit(r, static_cast<const elem*>(nullptr));
            }
        }
        for (const auto& e : same) out.add(e);
    }
    out.flush();
    io.leaf_written += n.leaves.size();
    w.finish();
}

}  // namespace emflow::detail::buffer_tree
