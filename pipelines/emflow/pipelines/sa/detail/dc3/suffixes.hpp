// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/suffixes.hpp: the last stage of a DC3 level (the paper's Figure 9,
// nodes 8 to 10). One scan of the text together with the sample's ranks (by reduced position:
// the 1-mod-3 ranks, then the 2-mod-3 ones, each half in position order) makes the three classes
// of tuples: class 0 is the scan's own output (pulled into its sorter), classes 1 and 2 are
// pushed into theirs. The merge takes the three sorted streams and emits the suffix array by the
// DC3 comparisons.
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/pipelines/sa/detail/dc3/scans.hpp>
#include <emflow/pipelines/sa/detail/dc3/tuples.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::dc3 {

//! Pull node of the class-0 tuples in position order; pushes classes 1 and 2 into succ1, succ2.
template <class Text, class Sym, class Index, class Ranks, class Succ1, class Succ2>
class class_scan
    : public buffered_pull<class_scan<Text, Sym, Index, Ranks, Succ1, Succ2>, class0<Sym, Index>> {
    using reader = typename Ranks::bufreader_type;
    using T = class0<Sym, Index>;
    friend class buffered_pull<class_scan, T>;

public:
    //! The classes of text (n symbols) with ranks (its reduced text's inverse suffix array).
    class_scan(Text&& text, const Ranks& ranks, std::uint64_t n, Succ1&& succ1, Succ2&& succ2)
        : window_(std::forward<Text>(text)), ranks_(&ranks), n_(n), n0_((n + 2) / 3), n2_(n / 3),
          succ1_(std::forward<Succ1>(succ1)), succ2_(std::forward<Succ2>(succ2)) {}

    //! Starts the text and the push successors, opens the rank readers; declares them and the
    //! buffers of the three classes.
    void start(run_context& ctx) {
        window_.start(ctx);
        succ1_.start(ctx);
        succ2_.start(ctx);
        this->declare_buffer(ctx, "DC3 class 0 chunk");
        ctx.memory().declare_run_long(
            "DC3 class 1 and 2 chunks",
            memory_demand::fixed(default_chunk *
                                 (sizeof(class1<Sym, Index>) + sizeof(class2<Sym, Index>))));
        ctx.memory().declare_run_long("DC3 rank readers",
                                      memory_demand::fixed(2 * vector_stream_bytes<Ranks>()));
        out1_.reserve(default_chunk);
        out2_.reserve(default_chunk);
        auto mid = ranks_->cbegin() + std::int64_t(n0_);
        r1_ = std::make_unique<reader>(ranks_->cbegin(), mid);
        r2_ = std::make_unique<reader>(mid, ranks_->cend());
        if (n0_ > 0) r1_cur_ = read(*r1_);
    }

private:
    static Index read(reader& r) {
        Index x = *r;
        ++r;
        return x;
    }

    //! The next class-0 tuples; after the last one, classes 1 and 2 are complete (stopped).
    std::size_t refill(T* out, std::size_t cap) {
        if (b_ == n0_) {
            finish();
            return 0;
        }
        std::size_t k = 0;
        for (; k < cap && b_ < n0_; ++b_) {
            const Sym* t = window_.next();
            const std::uint64_t i = 3 * b_;
            const Index r1 = r1_cur_;                               // r[i+1]
            const Index r2 = b_ < n2_ ? read(*r2_) : Index(0);      // r[i+2]
            const Index r4 = b_ + 1 < n0_ ? read(*r1_) : Index(0);  // r[i+4]
            out[k++] = {r1, r2, Index(i), t[0], t[1]};
            if (i + 1 < n_) out1_.push_back({r1, r2, Index(i + 1), t[1]});
            if (i + 2 < n_) out2_.push_back({r2, r4, Index(i + 2), t[2], t[3]});
            r1_cur_ = r4;
        }
        flush();
        return k;
    }

    void flush() {
        if (!out1_.empty()) succ1_.push_batch(out1_.data(), out1_.size());
        if (!out2_.empty()) succ2_.push_batch(out2_.data(), out2_.size());
        out1_.clear();
        out2_.clear();
    }

    void finish() {
        r1_.reset();
        r2_.reset();
        succ1_.push_stop();
        succ2_.push_stop();
    }

    group_window<Text, Sym> window_;
    const Ranks* ranks_;
    std::uint64_t n_, n0_, n2_, b_ = 0;
    stored_t<Succ1> succ1_;
    stored_t<Succ2> succ2_;
    std::unique_ptr<reader> r1_, r2_;
    Index r1_cur_ = 0;
    std::vector<class1<Sym, Index>> out1_;
    std::vector<class2<Sym, Index>> out2_;
};

//! The classes of text (n symbols, sample ranks in ranks), class 0 pulled, 1 and 2 pushed.
template <class Sym, class Index, class Text, class Ranks, class Succ1, class Succ2>
auto scan_classes(Text&& text, const Ranks& ranks, std::uint64_t n, Succ1&& succ1, Succ2&& succ2) {
    return class_scan<Text, Sym, Index, Ranks, Succ1, Succ2>(
        std::forward<Text>(text), ranks, n, std::forward<Succ1>(succ1), std::forward<Succ2>(succ2));
}

//! Reads a pull node batch by batch through a pointer (sorter and async outputs give pointers).
template <class Src>
class cursor {
public:
    using T = value_t<Src>;  //!< element type

    //! Reads src.
    explicit cursor(Src&& src) : src_(std::forward<Src>(src)) {}
    //! Starts src.
    void start(run_context& ctx) { src_.start(ctx); }
    //! True at the end of src.
    bool done() {
        if (pos_ < len_) return false;
        if (ended_) return true;
        src_ += len_;
        pos_ = len_ = 0;
        if (src_.empty()) return ended_ = true;
        len_ = src_.batch_length();
        p_ = src_.batch_begin();
        return false;
    }
    //! Current element (after done() returned false).
    const T& head() const { return p_[pos_]; }
    //! Advances by one.
    void pop() { ++pos_; }

private:
    stored_t<Src> src_;
    const T* p_ = nullptr;
    std::size_t pos_ = 0, len_ = 0;
    bool ended_ = false;
};

//! Pull node of the suffix array: the three sorted classes merged by the DC3 comparisons.
template <class S0, class S1, class S2>
class class_merge : public buffered_pull<class_merge<S0, S1, S2>, decltype(value_t<S0>::pos)> {
    using T = decltype(value_t<S0>::pos);  // Index
    friend class buffered_pull<class_merge, T>;

public:
    //! Merges the classes sorted into s0, s1 and s2.
    class_merge(S0&& s0, S1&& s1, S2&& s2)
        : c0_(std::forward<S0>(s0)), c1_(std::forward<S1>(s1)), c2_(std::forward<S2>(s2)) {}

    //! Starts the three inputs, declares the buffer.
    void start(run_context& ctx) {
        c0_.start(ctx);
        c1_.start(ctx);
        c2_.start(ctx);
        this->declare_buffer(ctx, "DC3 merge chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t k = 0;
        // Class 0 first: in traditional pipelining its pull runs the scan that feeds 1 and 2.
        while (k < cap) {
            bool d0 = c0_.done(), d1 = c1_.done(), d2 = c2_.done();
            if (d0 && d1 && d2) break;
            // the smaller sample suffix, then class 0 against it
            bool take1 = !d1 && (d2 || std::uint64_t(c1_.head().r0) < std::uint64_t(c2_.head().r0));
            bool take0 = !d0 && (d1 && d2 ? true
                                 : take1  ? less(c0_.head(), c1_.head())
                                          : less(c0_.head(), c2_.head()));
            if (take0) {
                out[k++] = c0_.head().pos;
                c0_.pop();
            } else if (take1) {
                out[k++] = c1_.head().pos;
                c1_.pop();
            } else {
                out[k++] = c2_.head().pos;
                c2_.pop();
            }
        }
        return k;
    }

    cursor<S0> c0_;
    cursor<S1> c1_;
    cursor<S2> c2_;
};

//! The suffix array from the sorted classes.
template <class S0, class S1, class S2>
auto merge_classes(S0&& s0, S1&& s1, S2&& s2) {
    return class_merge<S0, S1, S2>(std::forward<S0>(s0), std::forward<S1>(s1),
                                   std::forward<S2>(s2));
}

}  // namespace emflow::pipelines::sa::detail::dc3
