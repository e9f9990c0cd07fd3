// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/text_lookups.hpp: look-ups into a text answered from one scan of
// it, the S* LCP search's rounds (sstar_lcp.hpp). Both nodes own a pull node of look-ups sorted by
// position (pos_of(look-up)) and pull nodes of the text's bytes from its start, and start them;
// each look-up q leaves as make(q, what was found at its position):
//   bytes_at(lookups, text, pos_of, make): the next_bytes at each look-up (fewer than
//     bytes_round at the end of the text), from a ring of the last bytes_round bytes read, as
//     look-ups may overlap;
//   windows_at(lookups, text, ahead, w, bases, pos_of, make): the window_prints, two Karp-Rabin
//     fingerprints (bases: one per fingerprint) of the w bytes at each look-up, all within the
//     text; text stays at the window's start and ahead at its end, so a fingerprint rolls along
//     (two products per byte passed), and after a jump wider than w it is computed afresh past
//     what lies between.
//
//   auto found = bytes_at(sort(lookups, by_pos, opt), open_text(),
//                         [](const lookup& q) { return q.pos; },
//                         [](const lookup& q, const next_bytes& b) { return answer{q.who, b}; });
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/fingerprint.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa::detail::esais {

//! Bytes a bytes look-up reads.
inline constexpr std::uint64_t bytes_round = 32;

// What look-ups find travels through sorts on disk: the 64-bit fields are packed, so that a
// record holding one after a 5-byte index has no padding.

//! The bytes_round bytes from a position: big-endian in words, zeros past the end of the text.
struct next_bytes {
    [[gnu::packed]] std::uint64_t words[bytes_round / 8];  //!< the bytes
    std::uint8_t have;  //!< how many (fewer at the end of the text)
};

//! A window's two fingerprints.
struct window_prints {
    [[gnu::packed]] std::uint64_t x;  //!< fingerprint 1
    [[gnu::packed]] std::uint64_t y;  //!< fingerprint 2
};

//! How many bytes two next_bytes have in common.
inline std::uint64_t common_bytes(const next_bytes& a, const next_bytes& b) {
    std::uint64_t same = 0;
    for (std::size_t i = 0; i < bytes_round / 8; ++i, same += 8) {
        const std::uint64_t diff = a.words[i] ^ b.words[i];
        if (diff != 0) {
            same += unsigned(__builtin_clzll(diff)) / 8;
            break;
        }
    }
    return std::min<std::uint64_t>({same, a.have, b.have});
}

//! Advances the text src from position x to p (if x < p) without looking at the bytes between:
//! a source that can jump (a file's, skip_ahead) reads none of them, which makes a round of a
//! few look-ups far apart cost about their windows rather than the text; false if the text ends
//! first.
template <class Src>
bool skip_to(Src& src, std::uint64_t& x, std::uint64_t p) {
    if (x >= p) return true;
    const std::uint64_t passed = skip_ahead(src, p - x);
    x += passed;
    return x == p;
}

//! The look-up at p lies past the end of the text.
[[noreturn]] inline void lookup_past_end(std::uint64_t p) {
    throw std::logic_error("eSAIS text look-up at " + std::to_string(p) +
                           " past the end of the text");
}

//! The type a look-up of Lookups leaves a node as, having found Found.
template <class Lookups, class Make, class Found>
using answer_of_t =
    std::decay_t<std::invoke_result_t<Make&, const value_t<Lookups>&, const Found&>>;

//! Pull node: bytes_at (file comment).
template <class Lookups, class Text, class PosOf, class Make>
class bytes_at_node : public buffered_pull<bytes_at_node<Lookups, Text, PosOf, Make>,
                                           answer_of_t<Lookups, Make, next_bytes>> {
    using answer = answer_of_t<Lookups, Make, next_bytes>;
    friend class buffered_pull<bytes_at_node, answer>;

public:
    //! Answers lookups (sorted by position) from text.
    bytes_at_node(Lookups&& lookups, Text&& text, PosOf pos_of, Make make)
        : lookups_(std::forward<Lookups>(lookups)), text_(std::forward<Text>(text)),
          pos_of_(std::move(pos_of)), make_(std::move(make)) {}

    //! Starts the look-ups and the text, declares the buffer.
    void start(run_context& ctx) {
        lookups_.start(ctx);
        text_.start(ctx);
        this->declare_buffer(ctx, "bytes look-ups");
    }

private:
    std::size_t refill(answer* out, std::size_t cap) {
        std::size_t k = 0;
        for (; k < cap && !lookups_.empty(); ++lookups_) {
            const std::uint64_t p = pos_of_(*lookups_);
            if (!skip_to(text_, x_, p)) lookup_past_end(p);
            for (const std::uint64_t end = p + bytes_round; x_ < end;) {
                const std::size_t len = std::min<std::uint64_t>(text_.batch_length(), end - x_);
                if (len == 0) break;  // the end of the text
                const std::uint8_t* b = text_.batch_begin();
                for (std::size_t i = 0; i < len; ++i) ring_[(x_ + i) % bytes_round] = b[i];
                text_ += len;
                x_ += len;
            }
            next_bytes a{};
            a.have = std::uint8_t(std::min(x_ - p, bytes_round));
            for (std::uint64_t i = 0; i < a.have; ++i)
                a.words[i / 8] |= std::uint64_t(ring_[(p + i) % bytes_round]) << (56 - 8 * (i % 8));
            out[k++] = make_(*lookups_, a);
        }
        return k;
    }

    stored_t<Lookups> lookups_;
    stored_t<Text> text_;
    PosOf pos_of_;
    Make make_;
    std::uint64_t x_ = 0;  // text_'s position
    std::array<std::uint8_t, bytes_round> ring_{};
};

//! The next_bytes at each look-up of lookups (sorted by pos_of) in text, as make(look-up, bytes).
template <class Lookups, class Text, class PosOf, class Make>
auto bytes_at(Lookups&& lookups, Text&& text, PosOf pos_of, Make make) {
    return bytes_at_node<Lookups, Text, PosOf, Make>(std::forward<Lookups>(lookups),
                                                     std::forward<Text>(text), std::move(pos_of),
                                                     std::move(make));
}

//! Pull node: windows_at (file comment).
template <class Lookups, class Text, class PosOf, class Make>
class windows_at_node : public buffered_pull<windows_at_node<Lookups, Text, PosOf, Make>,
                                             answer_of_t<Lookups, Make, window_prints>> {
    using answer = answer_of_t<Lookups, Make, window_prints>;
    friend class buffered_pull<windows_at_node, answer>;

public:
    //! Answers lookups (sorted by position) with the fingerprints of w bytes (w >= 1) under
    //! bases (each in [2, modulus)) from text and ahead, two scans of the same text.
    windows_at_node(Lookups&& lookups, Text&& text, Text&& ahead, std::uint64_t w,
                    std::array<std::uint64_t, 2> bases, PosOf pos_of, Make make)
        : lookups_(std::forward<Lookups>(lookups)), text_(std::forward<Text>(text)),
          ahead_(std::forward<Text>(ahead)), pos_of_(std::move(pos_of)), make_(std::move(make)),
          w_(w), base_(bases) {
        using fingerprint::mul_mod;
        for (std::size_t f = 0; f < 2; ++f) {
            const std::uint64_t bw = fingerprint::pow_mod(base_[f], w);
            for (unsigned c = 0; c < 256; ++c) leaving_[f][c] = mul_mod(c + 1, bw);
        }
    }

    //! Starts the look-ups and both scans, declares the buffer.
    void start(run_context& ctx) {
        lookups_.start(ctx);
        text_.start(ctx);
        ahead_.start(ctx);
        this->declare_buffer(ctx, "window look-ups");
    }

private:
    std::size_t refill(answer* out, std::size_t cap) {
        std::size_t k = 0;
        for (; k < cap && !lookups_.empty(); ++lookups_) {
            const std::uint64_t p = pos_of_(*lookups_);
            if (!primed_ || p - x_ > w_) afresh(p);
            roll_to(p);
            out[k++] = make_(*lookups_, window_prints{g_[0], g_[1]});
        }
        return k;
    }

    //! The fingerprints of the window at p from its bytes, text_ and ahead_ skipped to it.
    void afresh(std::uint64_t p) {
        using namespace fingerprint;
        if (!skip_to(text_, x_, p) || !skip_to(ahead_, y_, p)) lookup_past_end(p);
        g_ = {0, 0};
        for (const std::uint64_t end = p + w_; y_ < end;) {
            const std::size_t len = std::min<std::uint64_t>(ahead_.batch_length(), end - y_);
            if (len == 0) lookup_past_end(p);
            const std::uint8_t* b = ahead_.batch_begin();
            for (std::size_t i = 0; i < len; ++i) {
                g_[0] = reduce(mul_mod(g_[0], base_[0]) + b[i] + 1);
                g_[1] = reduce(mul_mod(g_[1], base_[1]) + b[i] + 1);
            }
            ahead_ += len;
            y_ += len;
        }
        primed_ = true;
    }

    //! Rolls the window from x_ to p (p - x_ <= w_).
    void roll_to(std::uint64_t p) {
        using namespace fingerprint;
        while (x_ < p) {
            const std::size_t len =
                std::min<std::uint64_t>({text_.batch_length(), ahead_.batch_length(), p - x_});
            if (len == 0) lookup_past_end(p);
            const std::uint8_t* leaving = text_.batch_begin();
            const std::uint8_t* coming = ahead_.batch_begin();
            for (std::size_t i = 0; i < len; ++i) {
                g_[0] = reduce(mul_mod(g_[0], base_[0]) + coming[i] + 1 + modulus -
                               leaving_[0][leaving[i]]);
                g_[1] = reduce(mul_mod(g_[1], base_[1]) + coming[i] + 1 + modulus -
                               leaving_[1][leaving[i]]);
            }
            text_ += len;
            ahead_ += len;
            x_ += len;
            y_ += len;
        }
    }

    stored_t<Lookups> lookups_;
    stored_t<Text> text_, ahead_;
    PosOf pos_of_;
    Make make_;
    std::uint64_t w_;
    std::array<std::uint64_t, 2> base_;
    // leaving_[f][c]: what byte c contributes at the far end of a window, (c + 1) B^w.
    std::array<std::array<std::uint64_t, 256>, 2> leaving_{};
    std::uint64_t x_ = 0, y_ = 0;  // text_'s and ahead_'s positions
    bool primed_ = false;          // g_ holds the window at x_
    std::array<std::uint64_t, 2> g_{};
};

//! The window_prints under bases of the w bytes at each look-up of lookups (sorted by pos_of;
//! windows within the text), from text and ahead, two scans of the same text, as
//! make(look-up, prints).
template <class Lookups, class Text, class PosOf, class Make>
auto windows_at(Lookups&& lookups, Text&& text, Text&& ahead, std::uint64_t w,
                std::array<std::uint64_t, 2> bases, PosOf pos_of, Make make) {
    return windows_at_node<Lookups, Text, PosOf, Make>(
        std::forward<Lookups>(lookups), std::forward<Text>(text), std::forward<Text>(ahead), w,
        bases, std::move(pos_of), std::move(make));
}

}  // namespace emflow::pipelines::sa::detail::esais
