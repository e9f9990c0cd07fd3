// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/scans.hpp: the scanning nodes of DC3's flow graphs. The text is
// read in groups of three positions (3b, 3b+1, 3b+2) with a look-ahead of two symbols; the sample's
// triples and the three classes of tuples are made from one group at a time.
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/pipelines/sa/detail/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/tuples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::dc3 {

//! Reads a text of symbols group by group: next() gives T[3b..3b+5), zero past the end.
template <class Text, class Sym>
class group_window {
public:
    //! Reads text.
    explicit group_window(Text&& text) : text_(std::forward<Text>(text)) {}

    //! Starts the text, allocates and declares the window.
    void start(run_context& ctx) {
        text_.start(ctx);
        ctx.memory().declare_run_long("DC3 window",
                                      memory_demand::fixed((default_chunk + 8) * sizeof(Sym)));
        buf_.resize(default_chunk + 8);
    }
    //! The next group's five symbols; valid until the next call.
    const Sym* next() {
        if (pos_ + 5 > len_) refill();
        const Sym* g = buf_.data() + pos_;
        pos_ += 3;
        return g;
    }

private:
    void refill() {
        std::copy(buf_.begin() + std::ptrdiff_t(pos_), buf_.begin() + std::ptrdiff_t(len_),
                  buf_.begin());
        len_ -= pos_;
        pos_ = 0;
        while (len_ < default_chunk && !ended_) {
            if (text_.empty()) {
                ended_ = true;
                std::fill(buf_.begin() + std::ptrdiff_t(len_), buf_.end(), Sym(0));
                len_ = buf_.size();
                return;
            }
            std::size_t k = std::min(text_.batch_length(), default_chunk - len_);
            auto in = text_.batch_begin();
            for (std::size_t i = 0; i < k; ++i) buf_[len_ + i] = Sym(in[i]);
            text_ += k;
            len_ += k;
        }
    }

    stored_t<Text> text_;
    std::vector<Sym> buf_;
    std::size_t pos_ = 0, len_ = 0;
    bool ended_ = false;
};

//! Pull node of the sample's triples in position order: i mod 3 != 0, i < n, plus the dummy
//! position n when n mod 3 == 1 (its triple (0, 0, 0) is the unique smallest, so that the
//! 1-mod-3 half of the reduced text ends in a unique name).
template <class Text, class Sym, class Index>
class triple_scan : public buffered_pull<triple_scan<Text, Sym, Index>, triple<Sym, Index>> {
    using T = triple<Sym, Index>;
    friend class buffered_pull<triple_scan, T>;

public:
    //! The sample of text, which has n symbols.
    triple_scan(Text&& text, std::uint64_t n)
        : window_(std::forward<Text>(text)), groups_((n + 2) / 3), n2_(n / 3) {}

    //! Starts the text, declares the buffer.
    void start(run_context& ctx) {
        window_.start(ctx);
        this->declare_buffer(ctx, "DC3 triples chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        std::size_t k = 0;
        for (; k + 2 <= cap && b_ < groups_; ++b_) {
            const Sym* t = window_.next();
            out[k++] = {Index(3 * b_ + 1), {t[1], t[2], t[3]}};
            if (b_ < n2_) out[k++] = {Index(3 * b_ + 2), {t[2], t[3], t[4]}};
        }
        return k;
    }

    group_window<Text, Sym> window_;
    std::uint64_t groups_, n2_, b_ = 0;
};

//! The sample's triples of text (n symbols of type Sym).
template <class Sym, class Index, class Text>
auto scan_triples(Text&& text, std::uint64_t n) {
    return triple_scan<Text, Sym, Index>(std::forward<Text>(text), n);
}

}  // namespace emflow::pipelines::sa::detail::dc3
