// emflow/pipelines/sa/doubling/scans.hpp: the scanning nodes of a doubling round (Figure 8 of
// the parallel pipelining paper: between the merger, the full sorter and the runs creator):
// packing the first characters, joining the names at distance h into tuples, and renaming.
#pragma once

#include <emflow/node.hpp>
#include <emflow/pipelines/sa/doubling/tuples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::doubling_detail {

//! Pull node running a stateful scanner over src: scanner(x, emit) per element, then
//! scanner.finish(emit); emit(y) appends an output element. The scanner holds back at most
//! Scanner::lag elements (emitted by later calls or by finish()).
template <class T, class Src, class Scanner>
class scan_node {
public:
    using value_type = T;  //!< element type

    //! scanner over src.
    scan_node(Src&& src, Scanner scanner)
        : src_(std::forward<Src>(src)), scanner_(std::move(scanner)) {}

    //! Starts src, allocates the batch.
    void start(run_context& ctx) {
        src_.start(ctx);
        buf_.reserve(default_chunk + Scanner::lag + 1);
    }
    //! True when the scan is over.
    bool empty() { return pos_ == buf_.size() && !refill(); }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    scan_node& operator++() { return *this += 1; }
    //! Elements buffered.
    std::size_t batch_length() { return empty() ? 0 : buf_.size() - pos_; }
    //! The buffered elements.
    const T* batch_begin() { return buf_.data() + pos_; }
    //! Advances by n <= batch_length().
    scan_node& operator+=(std::size_t n) {
        pos_ += n;
        return *this;
    }
    //! The scanner (for its results after the run).
    const Scanner& scanner() const { return scanner_; }

private:
    bool refill() {
        buf_.clear();
        pos_ = 0;
        auto emit = [this](const T& y) { buf_.push_back(y); };
        // src.empty() is not asked again once it said true (the stxxl-vector source's refill
        // must not run twice at its end).
        while (!finished_ && buf_.size() < default_chunk) {
            if (src_.empty()) {
                scanner_.finish(emit);
                finished_ = true;
                break;
            }
            std::size_t n = std::min(src_.batch_length(), default_chunk - buf_.size());
            auto in = src_.batch_begin();
            for (std::size_t k = 0; k < n; ++k) scanner_(in[k], emit);
            src_ += n;
        }
        return !buf_.empty();
    }

    stored_t<Src> src_;
    Scanner scanner_;
    std::vector<T> buf_;
    std::size_t pos_ = 0;
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

//! Names sorted by residue_order(n, h) -> name_tuple<Index, W> per position: the chain of
//! residue r is r, r+h, r+2h, ...; each position takes the names of its W-1 successors in the
//! chain (0 past its end).
template <class Index, unsigned W>
class tuple_builder {
public:
    //! Elements held back: the open window.
    static constexpr std::size_t lag = W;

    //! For the names of length-h prefixes of a text of n bytes.
    tuple_builder(std::uint64_t n, std::uint64_t h) : order_(n, h) {}

    //! Adds the next name of the current chain.
    template <class Emit>
    void operator()(const keyed_name<Index>& x, Emit&& emit) {
        if (count_ == 0) front_ = q_ * order_.h() + r_;
        window_[count_++] = x.name;
        if (count_ == W) emit_front(emit);
        if (++q_ == order_.chain_length(r_)) {
            while (count_ > 0) emit_front(emit);
            ++r_;
            q_ = 0;
        }
    }
    //! Nothing is left: every chain ends with its last name.
    template <class Emit>
    void finish(Emit&&) {}

private:
    template <class Emit>
    void emit_front(Emit& emit) {
        name_tuple<Index, W> t;
        for (unsigned k = 0; k < W; ++k) t.name[k] = k < count_ ? window_[k] : Index(0);
        t.i = front_;
        emit(t);
        std::copy(window_ + 1, window_ + count_, window_);
        --count_;
        front_ += order_.h();
    }

    residue_order order_;
    Index window_[W];
    unsigned count_ = 0;
    std::uint64_t r_ = 0, q_ = 0, front_ = 0;
};

//! Tuples in sorted order -> keyed_name for the next round (keyed by residue_order(n, h)): the
//! name of a tuple is the rank (1-based) of the first tuple with the same prefix, so names keep
//! the order of the prefixes. Counts the distinct names.
template <class Index, class Tuple, class SamePrefix>
class renamer {
public:
    //! Elements held back: none.
    static constexpr std::size_t lag = 0;

    //! Names keyed for the next round's distance h.
    renamer(std::uint64_t n, std::uint64_t h, SamePrefix same) : order_(n, h), same_(same) {}

    //! Names t.
    template <class Emit>
    void operator()(const Tuple& t, Emit&& emit) {
        ++rank_;
        if (rank_ == 1 || !same_(prev_, t)) {
            name_ = rank_;
            ++names_;
        }
        prev_ = t;
        emit(keyed_name<Index>{Index(order_.key(t.i)), Index(name_)});
    }
    //! Nothing held back.
    template <class Emit>
    void finish(Emit&&) {}
    //! Distinct names given.
    std::uint64_t names() const { return names_; }

private:
    residue_order order_;
    SamePrefix same_;
    Tuple prev_{};
    std::uint64_t rank_ = 0, name_ = 0, names_ = 0;
};

//! Same first characters.
struct same_chars {
    //! a and b have the same packed characters.
    template <class Tuple>
    bool operator()(const Tuple& a, const Tuple& b) const {
        return a.chars == b.chars;
    }
};

//! Same names.
struct same_names {
    //! a and b have the same names.
    template <class Tuple>
    bool operator()(const Tuple& a, const Tuple& b) const {
        return std::equal(std::begin(a.name), std::end(a.name), std::begin(b.name),
                          [](std::uint64_t x, std::uint64_t y) { return x == y; });
    }
};

}  // namespace emflow::pipelines::sa::doubling_detail
