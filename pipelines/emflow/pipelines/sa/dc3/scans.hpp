// emflow/pipelines/sa/dc3/scans.hpp: the scanning nodes of DC3's flow graphs. The text is read in
// groups of three positions (3b, 3b+1, 3b+2) with a look-ahead of two symbols; the sample's
// triples and the three classes of tuples are made from one group at a time. Every node here
// asks its source's empty() only until it first returns true (stxxl-vector sources must not be
// asked again).
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>
#include <emflow/pipelines/sa/dc3/tuples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::dc3_detail {

//! Reads a text of symbols group by group: next() gives T[3b..3b+5), zero past the end.
template <class Text, class Sym>
class group_window {
public:
    //! Reads text.
    explicit group_window(Text&& text) : text_(std::forward<Text>(text)) {}

    //! Starts the text, allocates the window.
    void start(run_context& ctx) {
        text_.start(ctx);
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
class triple_scan {
public:
    using value_type = triple<Sym, Index>;  //!< element type

    //! The sample of text, which has n symbols.
    triple_scan(Text&& text, std::uint64_t n)
        : window_(std::forward<Text>(text)), groups_((n + 2) / 3), n2_(n / 3) {}

    //! Starts the text.
    void start(run_context& ctx) {
        window_.start(ctx);
        buf_.allocate(default_chunk);
    }
    //! True after the last triple.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current triple.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    triple_scan& operator++() { return *this += 1; }
    //! Triples buffered.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered triples.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    triple_scan& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        value_type* out = buf_.fill_area();
        std::size_t k = 0;
        for (; k + 2 <= buf_.capacity() && b_ < groups_; ++b_) {
            const Sym* t = window_.next();
            out[k++] = {Index(3 * b_ + 1), {t[1], t[2], t[3]}};
            if (b_ < n2_) out[k++] = {Index(3 * b_ + 2), {t[2], t[3], t[4]}};
        }
        buf_.filled(k);
        return k > 0;
    }

    group_window<Text, Sym> window_;
    std::uint64_t groups_, n2_, b_ = 0;
    batch_buffer<value_type> buf_;
};

//! The sample's triples of text (n symbols of type Sym).
template <class Sym, class Index, class Text>
auto scan_triples(Text&& text, std::uint64_t n) {
    return triple_scan<Text, Sym, Index>(std::forward<Text>(text), n);
}

//! Pull node applying f(x) to every element x of src exactly once, in order (f may keep state,
//! unlike transform's).
template <class Src, class F>
class scan_map {
public:
    //! element type
    using value_type = std::decay_t<std::invoke_result_t<F&, const value_t<Src>&>>;

    //! f over src.
    scan_map(Src&& src, F f) : src_(std::forward<Src>(src)), f_(std::move(f)) {}

    //! Starts src.
    void start(run_context& ctx) {
        src_.start(ctx);
        buf_.allocate(default_chunk);
    }
    //! True at the end of src.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    scan_map& operator++() { return *this += 1; }
    //! Elements buffered.
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The buffered elements.
    const value_type* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    scan_map& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        if (ended_ || src_.empty()) {
            ended_ = true;
            return false;
        }
        std::size_t k = std::min(src_.batch_length(), buf_.capacity());
        auto in = src_.batch_begin();
        value_type* out = buf_.fill_area();
        for (std::size_t i = 0; i < k; ++i) out[i] = f_(in[i]);
        src_ += k;
        buf_.filled(k);
        return true;
    }

    stored_t<Src> src_;
    F f_;
    batch_buffer<value_type> buf_;
    bool ended_ = false;
};

//! f over src, once per element in order.
template <class Src, class F>
auto map_each(Src&& src, F f) {
    return scan_map<Src, F>(std::forward<Src>(src), std::move(f));
}

}  // namespace emflow::pipelines::sa::dc3_detail
