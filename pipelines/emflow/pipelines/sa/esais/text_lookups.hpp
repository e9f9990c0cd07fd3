// emflow/pipelines/sa/esais/text_lookups.hpp: look-ups into a text answered from one scan of it,
// the S* LCP search's rounds (sstar_lcp.hpp). Both nodes own a pull node of look-ups sorted by
// position and pull nodes of the text's bytes from its start, and start them:
//   bytes_at<Index>(lookups, text): the bytes_round bytes at each look-up (fewer at the end of
//     the text), from a ring of the last bytes_round bytes read, as look-ups may overlap;
//   windows_at<Index>(lookups, text, ahead, w, bases): two Karp-Rabin fingerprints (bases: one
//     per fingerprint) of the w bytes at each look-up, all within the text; text stays at the
//     window's start and ahead at its end, so a fingerprint rolls along (two products per byte
//     passed), and after a jump wider than w it is computed afresh past what lies between.
//
//   auto answers = bytes_at<Index>(sort(lookups, lookup_by_pos<Index>{}, opt), open_text());
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/fingerprint.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace emflow::pipelines::sa::esais_detail {

//! A look-up: a window (or bytes) at pos for side who (2 * the pair's place in its round + side).
template <class Index>
struct window_lookup {
    Index pos;  //!< the text position
    Index who;  //!< pair and side
};

//! Bytes a bytes round compares.
inline constexpr std::uint64_t bytes_round = 32;

//! A window's look-up answered: its two fingerprints.
template <class Index>
struct window_answer {
    Index who;        //!< pair and side
    std::uint64_t x;  //!< fingerprint 1
    std::uint64_t y;  //!< fingerprint 2
};

//! A bytes look-up answered: up to bytes_round bytes, big-endian in words, zeros past the end.
template <class Index>
struct bytes_answer {
    Index who;                             //!< pair and side
    std::uint64_t words[bytes_round / 8];  //!< the bytes
    std::uint8_t have;                     //!< how many (fewer at the end of the text)
};

//! How many bytes two bytes answers have in common.
template <class Index>
std::uint64_t common_bytes(const bytes_answer<Index>& a, const bytes_answer<Index>& b) {
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

//! Advances the text src from position x to p (x <= p), passing whole batches over without
//! looking at their bytes (the source still reads them); false if the text ends first.
template <class Src>
bool skip_to(Src& src, std::uint64_t& x, std::uint64_t p) {
    while (x < p) {
        const std::size_t len = std::min<std::uint64_t>(src.batch_length(), p - x);
        if (len == 0) return false;
        src += len;
        x += len;
    }
    return true;
}

//! The look-up at p lies past the end of the text.
[[noreturn]] inline void lookup_past_end(std::uint64_t p) {
    throw std::logic_error("eSAIS text look-up at " + std::to_string(p) +
                           " past the end of the text");
}

//! Pull node of bytes_answer: bytes_at (file comment).
template <class Index, class Lookups, class Text>
class bytes_at_node
    : public buffered_pull<bytes_at_node<Index, Lookups, Text>, bytes_answer<Index>> {
    using answer = bytes_answer<Index>;
    friend class buffered_pull<bytes_at_node, answer>;

public:
    //! Answers lookups (sorted by position) from text.
    bytes_at_node(Lookups&& lookups, Text&& text)
        : lookups_(std::forward<Lookups>(lookups)), text_(std::forward<Text>(text)) {}

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
            const window_lookup<Index> q = *lookups_;
            const std::uint64_t p = q.pos;
            if (!skip_to(text_, x_, p)) lookup_past_end(p);
            for (const std::uint64_t end = p + bytes_round; x_ < end;) {
                const std::size_t len = std::min<std::uint64_t>(text_.batch_length(), end - x_);
                if (len == 0) break;  // the end of the text
                const std::uint8_t* b = text_.batch_begin();
                for (std::size_t i = 0; i < len; ++i) ring_[(x_ + i) % bytes_round] = b[i];
                text_ += len;
                x_ += len;
            }
            answer& a = out[k++];
            a = {};
            a.who = q.who;
            a.have = std::uint8_t(std::min(x_ - p, bytes_round));
            for (std::uint64_t i = 0; i < a.have; ++i)
                a.words[i / 8] |= std::uint64_t(ring_[(p + i) % bytes_round]) << (56 - 8 * (i % 8));
        }
        return k;
    }

    stored_t<Lookups> lookups_;
    stored_t<Text> text_;
    std::uint64_t x_ = 0;  // text_'s position
    std::array<std::uint8_t, bytes_round> ring_{};
};

//! The bytes_round bytes at each look-up of lookups (sorted by position) in text.
template <class Index, class Lookups, class Text>
auto bytes_at(Lookups&& lookups, Text&& text) {
    return bytes_at_node<Index, Lookups, Text>(std::forward<Lookups>(lookups),
                                               std::forward<Text>(text));
}

//! Pull node of window_answer: windows_at (file comment).
template <class Index, class Lookups, class Text>
class windows_at_node
    : public buffered_pull<windows_at_node<Index, Lookups, Text>, window_answer<Index>> {
    using answer = window_answer<Index>;
    friend class buffered_pull<windows_at_node, answer>;

public:
    //! Answers lookups (sorted by position) with the fingerprints of w bytes (w >= 1) under
    //! bases (each in [2, modulus)) from text and ahead, two scans of the same text.
    windows_at_node(Lookups&& lookups, Text&& text, Text&& ahead, std::uint64_t w,
                    std::array<std::uint64_t, 2> bases)
        : lookups_(std::forward<Lookups>(lookups)), text_(std::forward<Text>(text)),
          ahead_(std::forward<Text>(ahead)), w_(w), base_(bases) {
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
            const window_lookup<Index> q = *lookups_;
            const std::uint64_t p = q.pos;
            if (!primed_ || p - x_ > w_) afresh(p);
            roll_to(p);
            out[k++] = {q.who, g_[0], g_[1]};
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
    std::uint64_t w_;
    std::array<std::uint64_t, 2> base_;
    // leaving_[f][c]: what byte c contributes at the far end of a window, (c + 1) B^w.
    std::array<std::array<std::uint64_t, 256>, 2> leaving_{};
    std::uint64_t x_ = 0, y_ = 0;  // text_'s and ahead_'s positions
    bool primed_ = false;          // g_ holds the window at x_
    std::array<std::uint64_t, 2> g_{};
};

//! The fingerprints under bases of the w bytes at each look-up of lookups (sorted by position;
//! windows within the text), from text and ahead, two scans of the same text.
template <class Index, class Lookups, class Text>
auto windows_at(Lookups&& lookups, Text&& text, Text&& ahead, std::uint64_t w,
                std::array<std::uint64_t, 2> bases) {
    return windows_at_node<Index, Lookups, Text>(std::forward<Lookups>(lookups),
                                                 std::forward<Text>(text),
                                                 std::forward<Text>(ahead), w, bases);
}

}  // namespace emflow::pipelines::sa::esais_detail
