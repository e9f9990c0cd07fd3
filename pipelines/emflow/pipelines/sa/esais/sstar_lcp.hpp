// emflow/pipelines/sa/esais/sstar_lcp.hpp: the LCPs of the S* suffixes adjacent in suffix order,
// which the L-pass of the LCP inducing starts from. DC3 (the recursion) gives no LCPs, so each
// adjacent pair (a, b) finds its own by an exponential then binary search on its length l, in
// rounds:
//   0. from the seeds alone: different first bytes give 0, runs of the first byte of different
//      lengths give the shorter one; otherwise l starts at the common run's length;
//   1. a bytes round: the next B = 32 bytes of both suffixes; fewer than B in common ends the
//      search (most pairs of a text end here, as B bytes cost about as much to sort as a round);
//   2. up rounds w = B, 2B, 4B, ... over the pairs still growing: does T[a+l..a+l+w) equal
//      T[b+l..b+l+w)? yes: l += w, on to the next round; no (or past the end): the pair failed
//      at w and waits;
//   3. down rounds w = half the widest failed window down to B, over the pairs that failed at a
//      window wider than w: yes: l += w;
//   4. a bytes round over all of those: fewer than B bytes are left to match, as in 1.
// A round reads only its pairs, sorts their look-ups (two per pair) by position, answers them in
// one scan of the text and sorts the answers back to the pairs, so a pair costs about
// 2 log2(LCP / B) + 1 rounds' look-ups. A round takes its pairs in slices of at most n / 8 (one
// text scan each), so that its sorts hold about 12 bytes of answers per text byte on disk, not
// 48 per S* suffix. Windows are compared by two Karp-Rabin fingerprints
// (fingerprint.hpp, fresh random bases per run) rolled along the scan: two products per byte it
// rolls past; a scan jumps over stretches wider than the window to its next look-up. Two
// different windows of w bytes collide with probability below (w / 2^61)^2.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/dc3/budget.hpp>
#include <emflow/pipelines/sa/dc3/level.hpp>
#include <emflow/pipelines/sa/esais/tuples.hpp>
#include <emflow/pipelines/sa/fingerprint.hpp>
#include <emflow/vector_appender.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::esais_detail {

//! An adjacent pair of S* suffixes still searching: positions a before b in suffix order, the
//! length l matched so far and the pair's index in suffix order.
template <class Index>
struct sstar_pair {
    Index a, b, lcp, idx;  //!< the two positions, l, the index
};

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

//! A pair's LCP found after the seeds.
template <class Index>
struct found_lcp {
    Index idx;  //!< the pair's index in suffix order
    Index lcp;  //!< its LCP
};

//! Look-ups by position.
template <class Index>
struct lookup_by_pos {
    //! a < b
    bool operator()(const window_lookup<Index>& a, const window_lookup<Index>& b) const {
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
};

//! Answers by pair and side.
struct answer_by_who {
    //! a < b
    template <class Answer>
    bool operator()(const Answer& a, const Answer& b) const {
        return std::uint64_t(a.who) < std::uint64_t(b.who);
    }
};

//! Found LCPs by pair.
template <class Index>
struct found_by_idx {
    //! a < b
    bool operator()(const found_lcp<Index>& a, const found_lcp<Index>& b) const {
        return std::uint64_t(a.idx) < std::uint64_t(b.idx);
    }
};

//! Reads external vectors one after the other.
template <class Vector>
class chained_reader {
public:
    //! Over parts (non-null, outliving the reader), in order.
    explicit chained_reader(std::vector<const Vector*> parts) : parts_(std::move(parts)) {
        open_next();
    }
    //! Every part read.
    bool empty() const { return !reader_; }
    //! The current element.
    const typename Vector::value_type& operator*() const { return **reader_; }
    //! Advances by one.
    chained_reader& operator++() {
        ++*reader_;
        if (reader_->empty()) open_next();
        return *this;
    }

private:
    void open_next() {
        reader_.reset();
        while (next_ < parts_.size() && parts_[next_]->empty()) ++next_;
        if (next_ < parts_.size()) reader_ = std::make_unique<reader>(*parts_[next_++]);
    }
    using reader = typename Vector::bufreader_type;
    std::vector<const Vector*> parts_;
    std::size_t next_ = 0;
    std::unique_ptr<reader> reader_;
};

//! Computes the S* suffixes' LCPs.
template <class Index>
class sstar_lcp {
    template <class T>
    using vec = dc3_detail::ext_vector<T>;
    using pair_t = sstar_pair<Index>;
    using pairs_t = vec<pair_t>;
    using found_t = vector_appender<vec<found_lcp<Index>>>;
    //! log2 of the narrowest window: a bytes round's width.
    static constexpr unsigned first_window = unsigned(__builtin_ctzll(bytes_round));

public:
    //! For a text of n bytes; each round a graph run with run (its sorts share the budget) and
    //! sort options opt, over at most slice_pairs pairs per text scan (0: n / 8, at least 2^16);
    //! progress counts a byte per S* suffix into ph.
    sstar_lcp(std::uint64_t n, run_options run, sort_options opt, progress::phase& ph,
              std::uint64_t slice_pairs = 0)
        : n_(n), slice_(slice_pairs ? slice_pairs : std::max<std::uint64_t>(n / 8, 1 << 16)),
          run_(run), opt_(opt), ph_(ph) {
        std::random_device entropy;
        base_[0] = fingerprint::random_base(entropy);
        base_[1] = fingerprint::random_base(entropy);
    }

    //! The LCP of each S* suffix of sorted (seeds in suffix order) with the one before it (0 for
    //! the first), in that order, into out.
    template <class OpenText, class Seeds>
    void run(OpenText& open_text, const Seeds& sorted, vec<Index>& out) {
        pairs_t pairs;
        vec<Index> from_seeds;
        pair_up(sorted, pairs, from_seeds);
        vec<found_lcp<Index>> found;
        found_t found_out(found);
        search(open_text, pairs, found_out);
        found_out.finish();
        merge_found(from_seeds, found, out);
    }

private:
    //! Round 0: pairs the seeds decide are written to from_seeds (one entry per S* suffix, 0 for
    //! the first and for the undecided ones), the others to pairs.
    template <class Seeds>
    void pair_up(const Seeds& sorted, pairs_t& pairs, vec<Index>& from_seeds) {
        vector_appender<pairs_t> p(pairs);
        vector_appender<vec<Index>> d(from_seeds);
        std::uint64_t k = 0, decided = 0;
        seed<Index> prev{};
        for (typename Seeds::bufreader_type r(sorted); !r.empty(); ++r, ++k) {
            const seed<Index>& s = *r;
            std::uint64_t lcp = 0;
            if (k > 0 && prev.ch == s.ch && prev.run == s.run)
                p << pair_t{prev.pos, s.pos, s.run, Index(k - 1)};
            else if (k > 0 && prev.ch == s.ch)
                lcp = std::min(std::uint64_t(prev.run), std::uint64_t(s.run));
            if (k == 0 || prev.ch != s.ch || prev.run != s.run) ++decided;
            d << Index(lcp);
            prev = s;
        }
        p.finish();
        d.finish();
        ph_.add(decided, decided);
    }

    //! Rounds 1 to 4 (file comment): every pair's LCP into found. A round reads only the pairs
    //! that take part: the growing ones, then those failed at a window wider than the round's.
    template <class OpenText>
    void search(OpenText& open_text, const pairs_t& start, found_t& found) {
        auto add = [](pair_t& p, std::uint64_t l) { p.lcp = Index(std::uint64_t(p.lcp) + l); };
        // 1.
        pairs_t growing;
        {
            vector_appender<pairs_t> grow(growing);
            round(open_text, {&start}, 0, [&](pair_t p, std::uint64_t got) {
                add(p, got);
                if (got < bytes_round)
                    settled(found, p);
                else
                    grow << p;
            });
            grow.finish();
        }
        // 2. failed[k]: the pairs that failed at 2^k
        std::vector<std::unique_ptr<pairs_t>> failed;
        for (unsigned k = first_window; growing.size() > 0; ++k) {
            const std::uint64_t w = std::uint64_t(1) << k;
            failed.resize(k + 1);
            failed[k] = std::make_unique<pairs_t>();
            pairs_t next;
            vector_appender<pairs_t> grow(next), fail(*failed[k]);
            round(open_text, {&growing}, w, [&](pair_t p, std::uint64_t got) {
                add(p, got);
                if (got == w)
                    grow << p;
                else
                    fail << p;
            });
            grow.finish();
            fail.finish();
            growing.swap(next);
        }
        // 3. and 4.
        pairs_t descending;
        for (unsigned k = unsigned(failed.size()); k-- > first_window;) {
            pairs_t next;
            vector_appender<pairs_t> out(next);
            const std::uint64_t w = k > first_window ? std::uint64_t(1) << (k - 1) : 0;
            round(open_text, {&descending, failed[k].get()}, w, [&](pair_t p, std::uint64_t got) {
                add(p, got);
                if (w > 0)
                    out << p;
                else if (got < bytes_round)
                    settled(found, p);
                else
                    throw std::logic_error("eSAIS S* LCPs: a search overran");
            });
            out.finish();
            descending.swap(next);
            failed[k].reset();
        }
    }

    //! p's LCP is found.
    void settled(found_t& found, const pair_t& p) {
        found << found_lcp<Index>{p.idx, p.lcp};
        ph_.add(1, 1);
    }

    //! One round over the pairs of parts with windows of w bytes (0: a bytes round): every pair
    //! asks about both sides at its l but for those whose window would pass the end (they match
    //! 0); then settle(pair, bytes matched) for each pair in order.
    template <class OpenText, class Settle>
    void round(OpenText& open_text, std::vector<const pairs_t*> parts, std::uint64_t w,
               Settle settle) {
        if (w == 0)
            round_of<bytes_answer<Index>>(open_text, std::move(parts), w, settle);
        else
            round_of<window_answer<Index>>(open_text, std::move(parts), w, settle);
    }

    //! A round whose look-ups are answered by Answer, a slice of pairs at a time.
    template <class Answer, class OpenText, class Settle>
    void round_of(OpenText& open_text, const std::vector<const pairs_t*>& parts, std::uint64_t w,
                  Settle& settle) {
        const std::uint64_t n = n_;
        auto asks = [n, w](const pair_t& p) {
            return std::max(std::uint64_t(p.a), std::uint64_t(p.b)) + std::uint64_t(p.lcp) + w <= n;
        };
        chained_reader<pairs_t> in(parts);   // the pairs asking
        chained_reader<pairs_t> old(parts);  // the pairs settled
        std::uint64_t j = 0;                 // in's pair
        std::uint64_t place = 0;             // old's pair
        auto answered = [&, first = Answer{}](const Answer& a) mutable {
            const std::uint64_t who = a.who;
            if (who % 2 == 0) {
                first = a;
                return;
            }
            for (; place < who / 2; ++place, ++old) settle(*old, 0);  // asked nothing
            std::uint64_t got;
            if constexpr (std::is_same_v<Answer, bytes_answer<Index>>)
                got = common_bytes(first, a);
            else
                got = first.x == a.x && first.y == a.y ? w : 0;
            settle(*old, got);
            ++old;
            ++place;
        };
        while (!in.empty()) {
            const std::uint64_t slice_end = j + slice_;
            auto lookups = from_refill<window_lookup<Index>>(
                [&in, &asks, &j, slice_end](window_lookup<Index>* out, std::size_t cap) {
                    std::size_t k = 0;
                    for (; k + 2 <= cap && !in.empty() && j < slice_end; ++in, ++j) {
                        const pair_t& p = *in;
                        if (!asks(p)) continue;
                        const std::uint64_t l = p.lcp;
                        out[k++] = {Index(std::uint64_t(p.a) + l), Index(2 * j)};
                        out[k++] = {Index(std::uint64_t(p.b) + l), Index(2 * j + 1)};
                    }
                    return k;
                });
            auto by_pos = sort(std::move(lookups), lookup_by_pos<Index>{}, opt_);
            auto text = open_text();
            if constexpr (std::is_same_v<Answer, bytes_answer<Index>>) {
                materialize(sort(answer_bytes(by_pos, text), answer_by_who{}, opt_),
                            sink<Answer>(std::ref(answered)), run_);
            } else {
                auto ahead = open_text();
                materialize(sort(answer_windows(by_pos, text, ahead, w), answer_by_who{}, opt_),
                            sink<Answer>(std::ref(answered)), run_);
            }
        }
        for (; !old.empty(); ++old) settle(*old, 0);
    }

    //! The bytes_round bytes (fewer at the end) at each look-up's position, from one scan of the
    //! text; the last bytes_round bytes read stay in a ring (look-ups may overlap).
    template <class Lookups, class Text>
    auto answer_bytes(Lookups& lookups, Text& text) const {
        const std::uint64_t n = n_;
        return connect(
            connect(from_refill<bytes_answer<Index>>(
                        [&lookups, &text, n, x = std::uint64_t(0),
                         ring = std::array<std::uint8_t, bytes_round>{}](bytes_answer<Index>* out,
                                                                         std::size_t cap) mutable {
                            std::size_t k = 0;
                            for (; k < cap && !lookups.empty(); ++lookups) {
                                const window_lookup<Index> q = *lookups;
                                const std::uint64_t p = q.pos, end = std::min(p + bytes_round, n);
                                skip(text, x, p);
                                for (; x < end;) {
                                    const std::size_t len =
                                        std::min<std::uint64_t>(text.batch_length(), end - x);
                                    const std::uint8_t* b = text.batch_begin();
                                    for (std::size_t i = 0; i < len; ++i)
                                        ring[(x + i) % bytes_round] = b[i];
                                    text += len;
                                    x += len;
                                }
                                bytes_answer<Index>& a = out[k++];
                                a = {};
                                a.who = q.who;
                                a.have = std::uint8_t(end - p);
                                for (std::uint64_t i = 0; i < end - p; ++i)
                                    a.words[i / 8] |= std::uint64_t(ring[(p + i) % bytes_round])
                                                      << (56 - 8 * (i % 8));
                            }
                            return k;
                        }),
                    lookups),
            text);
    }

    //! The fingerprints of the w bytes at each look-up's position (all within the text), rolled
    //! along the text (text at x, ahead at x + w) or computed afresh after a jump.
    template <class Lookups, class Text>
    auto answer_windows(Lookups& lookups, Text& text, Text& ahead, std::uint64_t w) const {
        using namespace fingerprint;
        std::array<std::uint64_t, 2> base = base_;
        // leaving[c]: what byte c contributes at the far end of a window, (c + 1) B^w.
        std::array<std::array<std::uint64_t, 256>, 2> leaving{};
        for (int f = 0; f < 2; ++f) {
            const std::uint64_t bw = pow_mod(base[std::size_t(f)], w);
            for (unsigned c = 0; c < 256; ++c) leaving[std::size_t(f)][c] = mul_mod(c + 1, bw);
        }
        return connect(
            connect(
                connect(
                    from_refill<window_answer<Index>>(
                        [&lookups, &text, &ahead, w, base, leaving, x = std::uint64_t(0),
                         y = std::uint64_t(0), primed = false, g = std::array<std::uint64_t, 2>{}](
                            window_answer<Index>* out, std::size_t cap) mutable {
                            std::size_t k = 0;
                            for (; k < cap && !lookups.empty(); ++lookups) {
                                const window_lookup<Index> q = *lookups;
                                const std::uint64_t p = q.pos;
                                if (!primed || p - x > w) {
                                    skip(text, x, p);
                                    skip(ahead, y, p);
                                    g = {0, 0};
                                    for (const std::uint64_t end = p + w; y < end;) {
                                        const std::size_t len =
                                            std::min<std::uint64_t>(ahead.batch_length(), end - y);
                                        const std::uint8_t* b = ahead.batch_begin();
                                        for (std::size_t i = 0; i < len; ++i) {
                                            g[0] = reduce(mul_mod(g[0], base[0]) + b[i] + 1);
                                            g[1] = reduce(mul_mod(g[1], base[1]) + b[i] + 1);
                                        }
                                        ahead += len;
                                        y += len;
                                    }
                                    primed = true;
                                }
                                while (x < p) {
                                    const std::size_t len = std::min<std::uint64_t>(
                                        {text.batch_length(), ahead.batch_length(), p - x});
                                    const std::uint8_t* out_b = text.batch_begin();
                                    const std::uint8_t* in_b = ahead.batch_begin();
                                    for (std::size_t i = 0; i < len; ++i) {
                                        g[0] = reduce(mul_mod(g[0], base[0]) + in_b[i] + 1 +
                                                      modulus - leaving[0][out_b[i]]);
                                        g[1] = reduce(mul_mod(g[1], base[1]) + in_b[i] + 1 +
                                                      modulus - leaving[1][out_b[i]]);
                                    }
                                    text += len;
                                    ahead += len;
                                    x += len;
                                    y += len;
                                }
                                out[k++] = {q.who, g[0], g[1]};
                            }
                            return k;
                        }),
                    lookups),
                text),
            ahead);
    }

    //! Advances src from position x to p (x <= p) without reading what lies between.
    template <class Src>
    static void skip(Src& src, std::uint64_t& x, std::uint64_t p) {
        while (x < p) {
            const std::size_t len = std::min<std::uint64_t>(src.batch_length(), p - x);
            src += len;
            x += len;
        }
    }

    //! out: from_seeds with the undecided entries taken from found (pair idx gives the entry of
    //! suffix idx + 1).
    void merge_found(const vec<Index>& from_seeds, vec<found_lcp<Index>>& found, vec<Index>& out) {
        vec<found_lcp<Index>> sorted_found;
        dc3_detail::write_vector(sort(streamify(found), found_by_idx<Index>{}, opt_), sorted_found,
                                 run_);
        found.clear();
        typename vec<found_lcp<Index>>::bufreader_type f(sorted_found);
        typename vec<Index>::bufreader_type d(from_seeds);
        vector_appender<vec<Index>> w(out);
        for (std::uint64_t k = 0; !d.empty(); ++d, ++k) {
            if (k > 0 && !f.empty() && std::uint64_t((*f).idx) == k - 1) {
                w << (*f).lcp;
                ++f;
            } else {
                w << *d;
            }
        }
        w.finish();
    }

    std::uint64_t n_;
    std::uint64_t slice_;  // pairs per text scan
    run_options run_;
    sort_options opt_;
    progress::phase& ph_;
    std::array<std::uint64_t, 2> base_{};
};

}  // namespace emflow::pipelines::sa::esais_detail
