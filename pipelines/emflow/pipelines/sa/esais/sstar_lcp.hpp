// emflow/pipelines/sa/esais/sstar_lcp.hpp: the LCPs of the S* suffixes adjacent in suffix order,
// which the L-pass of the LCP inducing starts from. DC3 (the recursion) gives no LCPs, so each
// adjacent pair (a, b) finds its own by an exponential then binary search on its length l,
// in rounds that every pair still searching takes part in:
//   0. from the seeds alone: different first bytes give 0, runs of the first byte of different
//      lengths give the shorter one; otherwise l starts at the common run's length;
//   1. a bytes round: the next 8 bytes of both suffixes; fewer than 8 in common ends the search;
//   2. up rounds w = 8, 16, 32, ...: does T[a+l..a+l+w) equal T[b+l..b+l+w)? yes: l += w, on to
//      the next round; no (or past the end): the pair failed at w;
//   3. down rounds w = half the largest failed window down to 8: a pair that failed at a window
//      wider than w asks again, yes: l += w;
//   4. a bytes round: fewer than 8 bytes are left to match, as in 1.
// A round sorts its look-ups (two per pair) by position, answers them in one scan of the text
// and sorts the answers back to the pairs: rounds cost what their pairs ask, and most pairs of a
// text end in the first rounds, so the rounds' total is about m log(mean LCP) look-ups for m
// pairs. Windows are compared by two Karp-Rabin fingerprints (fingerprint.hpp, fresh random
// bases per run) rolled along the scan, so a window costs two products per byte it rolls past;
// a scan jumps over stretches wider than the window to its next look-up. Two different windows
// of w bytes collide with probability below (w / 2^61)^2.
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
#include <random>
#include <stdexcept>

namespace emflow::pipelines::sa::esais_detail {

//! An adjacent pair of S* suffixes still searching: positions a before b in suffix order, the
//! length l matched so far, the pair's index in suffix order and its search state.
template <class Index>
struct sstar_pair {
    Index a, b, lcp, idx;  //!< the two positions, l, the index
    std::uint8_t state;    //!< 0: first bytes round, 1: growing, 2 + k: failed at 2^k
};

//! A look-up: a window (or bytes) at pos for side who (pair index * 2 + side).
template <class Index>
struct window_lookup {
    Index pos;  //!< the text position
    Index who;  //!< pair and side
};

//! A look-up answered: two fingerprints, or the bytes (x, big-endian) and how many (y).
template <class Index>
struct window_answer {
    Index who;        //!< pair and side
    std::uint64_t x;  //!< fingerprint 1, or the bytes
    std::uint64_t y;  //!< fingerprint 2, or the number of bytes
};

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
template <class Index>
struct answer_by_who {
    //! a < b
    bool operator()(const window_answer<Index>& a, const window_answer<Index>& b) const {
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

//! Computes the S* suffixes' LCPs.
template <class Index>
class sstar_lcp {
    template <class T>
    using vec = dc3_detail::ext_vector<T>;
    using pair_t = sstar_pair<Index>;
    static constexpr std::uint64_t bytes_round = 8;  // bytes a bytes round compares
    static constexpr std::uint8_t first_bytes = 0, growing = 1, failed = 2;

public:
    //! For a text of n bytes; each round a graph run with run (its sorts share the budget) and
    //! sort options opt.
    sstar_lcp(std::uint64_t n, run_options run, sort_options opt) : n_(n), run_(run), opt_(opt) {
        std::random_device entropy;
        base_[0] = fingerprint::random_base(entropy);
        base_[1] = fingerprint::random_base(entropy);
    }

    //! The LCP of each S* suffix of sorted (seeds in suffix order) with the one before it (0 for
    //! the first), in that order, into out.
    template <class OpenText, class Seeds>
    void run(OpenText& open_text, const Seeds& sorted, vec<Index>& out) {
        vec<pair_t> pairs;
        vec<Index> from_seeds;
        pair_up(sorted, pairs, from_seeds);
        vec<found_lcp<Index>> found;
        vector_appender<vec<found_lcp<Index>>> found_out(found);
        if (pairs.size() > 0) search(open_text, pairs, found_out);
        found_out.finish();
        merge_found(from_seeds, found, out);
    }

private:
    //! Round 0: pairs the seeds decide are written to from_seeds (one entry per S* suffix, 0 for
    //! the first and for the undecided ones), the others to pairs.
    template <class Seeds>
    void pair_up(const Seeds& sorted, vec<pair_t>& pairs, vec<Index>& from_seeds) {
        vector_appender<vec<pair_t>> p(pairs);
        vector_appender<vec<Index>> d(from_seeds);
        std::uint64_t k = 0;
        seed<Index> prev{};
        for (typename Seeds::bufreader_type r(sorted); !r.empty(); ++r, ++k) {
            const seed<Index>& s = *r;
            std::uint64_t lcp = 0;
            if (k > 0 && prev.ch == s.ch) {
                if (prev.run == s.run)
                    p << pair_t{prev.pos, s.pos, s.run, Index(k - 1), first_bytes};
                else
                    lcp = std::min(std::uint64_t(prev.run), std::uint64_t(s.run));
            }
            d << Index(lcp);
            prev = s;
        }
        p.finish();
        d.finish();
    }

    //! Rounds 1 to 4 (file comment) on pairs; every pair's LCP ends up in found.
    template <class OpenText, class Out>
    void search(OpenText& open_text, vec<pair_t>& pairs, Out& found) {
        auto all = [](const pair_t&) { return true; };
        auto matched_bytes = [](const window_answer<Index>& a, const window_answer<Index>& b) {
            const std::uint64_t diff = a.x ^ b.x;
            const std::uint64_t same = diff == 0 ? bytes_round : unsigned(__builtin_clzll(diff)) / 8;
            return std::min({same, a.y, b.y});
        };
        // 1.
        round(open_text, pairs, found, 0, all, matched_bytes, [](pair_t& p, std::uint64_t got) {
            p.lcp = Index(std::uint64_t(p.lcp) + got);
            p.state = growing;
            return got < bytes_round;
        });
        // 2.
        unsigned widest_failure = 0;
        auto grows = [](const pair_t& p) { return p.state == growing; };
        for (unsigned k = 3, grew = pairs.size() > 0; grew; ++k) {
            const std::uint64_t w = std::uint64_t(1) << k;
            grew = 0;
            round(open_text, pairs, found, w, grows, equal_windows(w),
                  [&, k, w](pair_t& p, std::uint64_t got) {
                      if (got == w) {
                          p.lcp = Index(std::uint64_t(p.lcp) + w);
                          grew = 1;
                      } else {
                          p.state = std::uint8_t(failed + k);
                          widest_failure = k;
                      }
                      return false;
                  });
        }
        // 3.
        for (unsigned k = widest_failure; k-- > 3;) {
            const std::uint64_t w = std::uint64_t(1) << k;
            round(
                open_text, pairs, found, w, [k](const pair_t& p) { return p.state > failed + k; },
                equal_windows(w), [](pair_t& p, std::uint64_t got) {
                    p.lcp = Index(std::uint64_t(p.lcp) + got);
                    return false;
                });
        }
        // 4.
        if (pairs.size() == 0) return;
        round(open_text, pairs, found, 0, all, matched_bytes, [](pair_t& p, std::uint64_t got) {
            if (got >= bytes_round) throw std::logic_error("eSAIS S* LCPs: a search overran");
            p.lcp = Index(std::uint64_t(p.lcp) + got);
            return true;
        });
    }

    //! How much two answers of a round with windows of w bytes match: w or 0.
    auto equal_windows(std::uint64_t w) const {
        return [w](const window_answer<Index>& a, const window_answer<Index>& b) {
            return a.x == b.x && a.y == b.y ? w : 0;
        };
    }

    //! One round with windows of w bytes (0: a bytes round): the pairs that take part ask about
    //! both sides at their l (those whose window would pass the end match 0 without asking);
    //! update(pair, matched) -> done; done pairs go to found, the others stay in pairs.
    template <class OpenText, class Out, class TakesPart, class Match, class Update>
    void round(OpenText& open_text, vec<pair_t>& pairs, Out& found, std::uint64_t w,
               TakesPart takes_part, Match match, Update update) {
        const std::uint64_t n = n_;
        auto asks = [&takes_part, n, w](const pair_t& p) {
            return takes_part(p) &&
                   std::max(std::uint64_t(p.a), std::uint64_t(p.b)) + std::uint64_t(p.lcp) + w <= n;
        };
        typename vec<pair_t>::bufreader_type in(pairs);
        auto lookups =
            from_refill<window_lookup<Index>>([&in, &asks](window_lookup<Index>* out,
                                                           std::size_t cap) {
                std::size_t k = 0;
                for (; k + 2 <= cap && !in.empty(); ++in) {
                    const pair_t& p = *in;
                    if (!asks(p)) continue;
                    const std::uint64_t l = p.lcp;
                    out[k++] = {Index(std::uint64_t(p.a) + l), Index(2 * std::uint64_t(p.idx))};
                    out[k++] = {Index(std::uint64_t(p.b) + l),
                                Index(2 * std::uint64_t(p.idx) + 1)};
                }
                return k;
            });
        auto by_pos = sort(std::move(lookups), lookup_by_pos<Index>{}, opt_);

        vec<pair_t> kept;
        vector_appender<vec<pair_t>> keep(kept);
        typename vec<pair_t>::bufreader_type old(pairs);
        auto settle = [&](pair_t p, std::uint64_t matched) {
            if (takes_part(p) && update(p, matched))
                found << found_lcp<Index>{p.idx, p.lcp};
            else
                keep << p;
        };
        // Settles the pairs before pair idx, which asked nothing; returns pair idx.
        auto skip_to = [&](std::uint64_t idx) {
            for (; std::uint64_t((*old).idx) != idx; ++old) settle(*old, 0);
            pair_t p = *old;
            ++old;
            return p;
        };
        window_answer<Index> first{};
        auto answered = [&](const window_answer<Index>& a) {
            if (std::uint64_t(a.who) % 2 == 0) {
                first = a;
                return;
            }
            settle(skip_to(std::uint64_t(a.who) / 2), match(first, a));
        };
        auto text = open_text();
        if (w == 0) {
            materialize(sort(answer_bytes(by_pos, text), answer_by_who<Index>{}, opt_),
                        sink<window_answer<Index>>(answered), run_);
        } else {
            auto ahead = open_text();
            materialize(sort(answer_windows(by_pos, text, ahead, w), answer_by_who<Index>{}, opt_),
                        sink<window_answer<Index>>(answered), run_);
        }
        for (; !old.empty(); ++old) settle(*old, 0);
        keep.finish();
        pairs.swap(kept);
    }

    //! The 8 bytes (fewer at the end) at each look-up's position, from one scan of the text.
    template <class Lookups, class Text>
    auto answer_bytes(Lookups& lookups, Text& text) const {
        const std::uint64_t n = n_;
        return connect(
            connect(from_refill<window_answer<Index>>(
                        [&lookups, &text, n, x = std::uint64_t(0), last = std::uint64_t(0)](
                            window_answer<Index>* out, std::size_t cap) mutable {
                            std::size_t k = 0;
                            for (; k < cap && !lookups.empty(); ++lookups) {
                                const window_lookup<Index> q = *lookups;
                                const std::uint64_t p = q.pos, end = std::min(p + bytes_round, n);
                                skip(text, x, p);
                                for (; x < end;) {
                                    const std::size_t len =
                                        std::min<std::uint64_t>(text.batch_length(), end - x);
                                    const std::uint8_t* b = text.batch_begin();
                                    for (std::size_t i = 0; i < len; ++i) last = last << 8 | b[i];
                                    text += len;
                                    x += len;
                                }
                                const std::uint64_t have = end - p;  // the low bytes of last
                                const std::uint64_t bytes =
                                    have == 0 ? 0 : last << (8 * (bytes_round - have));
                                out[k++] = {q.who, bytes, have};
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
            for (unsigned c = 0; c < 256; ++c)
                leaving[std::size_t(f)][c] = mul_mod(c + 1, bw);
        }
        return connect(
            connect(connect(from_refill<window_answer<Index>>(
                                [&lookups, &text, &ahead, w, base, leaving,
                                 x = std::uint64_t(0), y = std::uint64_t(0), primed = false,
                                 g = std::array<std::uint64_t, 2>{}](
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
                                                const std::size_t len = std::min<std::uint64_t>(
                                                    ahead.batch_length(), end - y);
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
        dc3_detail::write_vector(sort(streamify(found), found_by_idx<Index>{}, opt_),
                                 sorted_found, run_);
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
    run_options run_;
    sort_options opt_;
    std::array<std::uint64_t, 2> base_{};
};

}  // namespace emflow::pipelines::sa::esais_detail
