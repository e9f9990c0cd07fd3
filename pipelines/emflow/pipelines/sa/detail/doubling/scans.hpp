// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/doubling/scans.hpp: the scanning nodes of a doubling round (Figure 8
// of the parallel pipelining paper: between the merger, the full sorter and the runs creator):
// packing the first characters, joining the names at distance h into tuples (and discarding
// finished positions side-ways), and renaming.
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/pipelines/sa/detail/doubling/tuples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::doubling {

//! Pull node running a stateful scanner over src: scanner(x, emit) per element, then
//! scanner.finish(emit); emit(y) appends an output element. The scanner holds back at most
//! Scanner::lag elements (emitted by later calls or by finish()).
template <class T, class Src, class Scanner>
class scan_node : public buffered_pull<scan_node<T, Src, Scanner>, T> {
    friend class buffered_pull<scan_node, T>;

public:
    //! scanner over src.
    scan_node(Src&& src, Scanner scanner)
        : buffered_pull<scan_node, T>(default_chunk + Scanner::lag + 1),
          src_(std::forward<Src>(src)), scanner_(std::move(scanner)) {}

    //! Starts src and the scanner's side outputs, declares the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        scanner_.start(ctx);
        this->declare_buffer(ctx, "doubling scan chunk");
    }
    //! The scanner (for its results after the run).
    const Scanner& scanner() const { return scanner_; }

private:
    //! Scans up to cap - lag - 1 inputs, so that what the scanner held back fits too.
    std::size_t refill(T* out, std::size_t cap) {
        const std::size_t inputs = cap - Scanner::lag - 1;
        std::size_t k = 0;
        auto emit = [out, &k](const T& y) { out[k++] = y; };
        while (!finished_ && k < inputs) {
            if (src_.empty()) {
                scanner_.finish(emit);
                finished_ = true;
                break;
            }
            std::size_t n = std::min(src_.batch_length(), inputs - k);
            auto in = src_.batch_begin();
            for (std::size_t i = 0; i < n; ++i) scanner_(in[i], emit);
            src_ += n;
        }
        return k;
    }

    stored_t<Src> src_;
    Scanner scanner_;
    bool finished_ = false;
};

//! A scan_node of T over src.
template <class T, class Src, class Scanner>
auto scan(Src&& src, Scanner scanner) {
    return scan_node<T, Src, Scanner>(std::forward<Src>(src), std::move(scanner));
}

//! Text bytes -> char_tuple per position: a window of the next packed_chars characters. Checks
//! that the text has the announced length.
template <class Index>
class char_packer {
public:
    //! Elements held back: the positions whose window is not complete yet.
    static constexpr std::size_t lag = packed_chars;

    //! For a text of n bytes.
    explicit char_packer(std::uint64_t n) : n_(n) {}

    //! No side outputs.
    void start(run_context&) {}

    //! Shifts in byte c; emits the position whose window is now complete.
    template <class Emit>
    void operator()(std::uint8_t c, Emit&& emit) {
        if (seen_ == n_) throw length_error("more than ");
        ++seen_;
        shift_in(std::uint64_t(c) + 1, emit);
    }
    //! Shifts in "past the end" for the last positions.
    template <class Emit>
    void finish(Emit&& emit) {
        if (seen_ != n_) throw length_error("");
        for (unsigned k = 1; k < packed_chars; ++k) shift_in(0, emit);
    }

private:
    //! Shifts in one character code; the window of the position packed_chars back is complete.
    template <class Emit>
    void shift_in(std::uint64_t code, Emit& emit) {
        window_ = (window_ << char_bits | code) & mask;
        if (++shifted_ >= packed_chars)
            emit(char_tuple<Index>{window_, Index(shifted_ - packed_chars)});
    }

    std::runtime_error length_error(const char* got) const {
        return std::runtime_error("emflow: the text source gave " + std::string(got) +
                                  std::to_string(seen_) + " bytes, expected " + std::to_string(n_));
    }

    static constexpr std::uint64_t mask = (std::uint64_t(1) << (packed_chars * char_bits)) - 1;
    std::uint64_t n_, window_ = 0, shifted_ = 0, seen_ = 0;
};

//! Names sorted by residue_order(n, h) -> name_tuple<Index, W> per unfinished position (one
//! whose name is not unique yet), with discarding (Dementiev et al.): the chain of residue r is
//! r, r+h, r+2h, ...; a position takes the names of its W-1 successors in the chain (0 past the
//! end). A tuple is ordered by its names up to the first unique one, so later ones may be
//! missing (0). A finished position i is needed again only if its W chain predecessors are all
//! unfinished: otherwise i-Wh finishes in this round and covers i in every later tuple. So it
//! goes to `next` (kept, keyed for distance W*h) or to `done` (discarded for good, by rank),
//! and serves this round's predecessors either way.
template <class Index, unsigned W, class Next, class Done>
class tuple_builder {
public:
    //! Elements held back: the open window.
    static constexpr std::size_t lag = W;

    //! For the names of length-h prefixes of a text of n bytes.
    tuple_builder(std::uint64_t n, std::uint64_t h, Next& next, Done& done)
        : n_(n), order_(n, h), next_order_(n, W * h), next_(&next), done_(&done) {}

    //! Starts the side outputs (before the graph's sink: the tuples may be read by a task).
    void start(run_context& ctx) {
        next_->start(ctx);
        done_->start(ctx);
    }
    //! Adds the next name in chain order.
    template <class Emit>
    void operator()(const keyed_name<Index>& x, Emit&& emit) {
        const std::uint64_t i = order_.position(x.key);
        if (count_ > 0 && i != window_[count_ - 1].i + order_.h()) {
            while (count_ > 0) emit_front(emit);  // a gap or a new chain: no more successors
            run_ = 0;
        }
        if (x.unique) {
            if (run_ >= W)
                next_->push(keyed_name<Index>{Index(next_order_.key(i)), x.name, 1});
            else
                done_->push(ranked_position<Index>{x.name, Index(i)});
            run_ = 0;
        } else if (run_ < W) {
            ++run_;
        }
        window_[count_++] = {i, x.name, x.unique != 0};
        if (count_ == W) emit_front(emit);
    }
    //! Emits the tuples of the last chain.
    template <class Emit>
    void finish(Emit&& emit) {
        while (count_ > 0) emit_front(emit);
    }

private:
    struct entry {
        std::uint64_t i;
        Index name;
        bool unique;
    };

    //! The tuple of the window's first position (if unfinished); drops it from the window.
    template <class Emit>
    void emit_front(Emit& emit) {
        const entry& f = window_[0];
        if (!f.unique) {
            name_tuple<Index, W> t;
            t.name[0] = f.name;
            t.i = Index(f.i);
            bool covered = false;  // an earlier component is unique: the rest does not matter
            for (unsigned k = 1; k < W; ++k) {
                if (k < count_) {
                    t.name[k] = window_[k].name;
                    covered = covered || window_[k].unique;
                } else {
                    if (!covered && f.i + k * order_.h() < n_)
                        throw std::logic_error("emflow: prefix doubling discarded a needed name");
                    t.name[k] = Index(0);
                    covered = true;  // past the end, or not needed
                }
            }
            emit(t);
        }
        std::copy(window_ + 1, window_ + count_, window_);
        --count_;
    }

    std::uint64_t n_;
    residue_order order_, next_order_;
    Next* next_;
    Done* done_;
    entry window_[W];
    unsigned count_ = 0, run_ = 0;  // run_: unfinished positions right before, at most W
};

//! Tuples in sorted order -> keyed_name for the next round (keyed by residue_order(n, h)).
//! Names are global ranks: the old name (the rank of the first position with the same shorter
//! prefix; all those positions are unfinished, so all are here) plus the offset of the tuple's
//! group among them. So the names of discarded positions stay valid. A name is unique when its
//! group has one tuple: one tuple is held back to know. Counts the names not unique yet.
template <class Index, class Tuple, class Group>
class renamer {
public:
    //! Elements held back: the last tuple.
    static constexpr std::size_t lag = 1;

    //! Names keyed for the next round's distance h.
    renamer(std::uint64_t n, std::uint64_t h, Group group) : order_(n, h), group_(group) {}

    //! No side outputs.
    void start(run_context&) {}
    //! Names t; emits the tuple before it.
    template <class Emit>
    void operator()(const Tuple& t, Emit&& emit) {
        const std::uint64_t old = group_.old_name(t);
        if (seen_ == 0 || old != prev_old_) old_start_ = seen_;
        const bool same = seen_ > 0 && group_.same(prev_, t);
        if (seen_ > 0) emit_prev(prev_starts_ && !same, emit);
        if (!same) prev_name_ = old + (seen_ - old_start_);
        prev_ = t;
        prev_old_ = old;
        prev_starts_ = !same;
        ++seen_;
    }
    //! Emits the last tuple.
    template <class Emit>
    void finish(Emit&& emit) {
        if (seen_ > 0) emit_prev(prev_starts_, emit);
    }
    //! Names given that are not unique.
    std::uint64_t unfinished() const { return unfinished_; }

private:
    template <class Emit>
    void emit_prev(bool unique, Emit& emit) {
        if (!unique) ++unfinished_;
        emit(
            keyed_name<Index>{Index(order_.key(prev_.i)), Index(prev_name_), std::uint8_t(unique)});
    }

    residue_order order_;
    Group group_;
    Tuple prev_{};
    bool prev_starts_ = false;
    std::uint64_t seen_ = 0, old_start_ = 0, prev_old_ = 0, prev_name_ = 0, unfinished_ = 0;
};

//! Groups of the first round: equal packed characters; every position starts unnamed (1).
struct char_groups {
    //! a and b have the same packed characters.
    template <class Tuple>
    bool same(const Tuple& a, const Tuple& b) const {
        return a.chars == b.chars;
    }
    //! No name yet: all positions share the range from 1.
    template <class Tuple>
    std::uint64_t old_name(const Tuple&) const {
        return 1;
    }
};

//! Groups of a round: equal names; the old name is the position's own.
struct name_groups {
    //! a and b have the same names.
    template <class Tuple>
    bool same(const Tuple& a, const Tuple& b) const {
        return std::equal(std::begin(a.name), std::end(a.name), std::begin(b.name),
                          [](std::uint64_t x, std::uint64_t y) { return x == y; });
    }
    //! The position's name before this round.
    template <class Tuple>
    std::uint64_t old_name(const Tuple& t) const {
        return t.name[0];
    }
};

}  // namespace emflow::pipelines::sa::detail::doubling
