// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/sstar_lcp.hpp: the LCPs of the S* suffixes adjacent in suffix
// order, which the L-pass of the LCP inducing starts from. DC3 (the recursion) gives no LCPs, so
// each adjacent pair (a, b) finds its own by an exponential then binary search on its length l, in
// rounds:
//   0. from the seeds alone: different first bytes give 0, runs of the first byte of different
//      lengths give the shorter one; otherwise l starts at the common run's length;
//   1. a bytes round: the next B = 32 bytes of both suffixes; fewer than B in common ends the
//      search (most pairs of a text end here, as B bytes cost about as much to sort as a round).
//      Both suffixes of a pair round 0 left have the same run, so here each S* suffix looks up
//      its bytes once for both its pairs, and the answers, back in suffix order, are compared
//      neighbour with neighbour;
//   1'. followers: in the order of the first suffixes' positions, a pair (a, b) still growing
//      whose predecessor (a0, b0) lies shifted by d = a - a0 = b - b0, d at most the l of
//      (a0, b0), has the LCP of (a0, b0) less d (the suffixes at a and b are those at a0 and b0
//      less d equal bytes). Only the chains' heads search on; one scan in that order gives every
//      follower its LCP after them. The S* suffixes of a repeat's later copy follow each other
//      (pairs with the earlier copy), so in repetitive texts most long LCPs are found without a
//      round of their own;
//   2. up rounds w = B, 2B, 4B, ... over the heads still growing: does T[a+l..a+l+w) equal
//      T[b+l..b+l+w)? yes: l += w, on to the next round; no (or past the end): the pair failed
//      at w and waits;
//   3. down rounds w = half the widest failed window down to B, over the pairs that failed at a
//      window wider than w: yes: l += w;
//   4. a bytes round over all of those: fewer than B bytes are left to match, as in 1.
// A later round reads only its pairs; it sorts them by their first suffix's position, reads what
// is there in one scan of the text, sorts them with it by their second suffix's position and
// compares in a second scan. Nothing is sorted back to the pairs (a pair's outcome does not
// depend on its place), and a pair costs about 2 log2(LCP / B) + 1 rounds after the first. A
// round takes its pairs (the first round its suffixes) in slices of at most n / 8 per scan of the
// text: its sorts hold at most about 10 bytes per text byte on disk (78 per pair in a later bytes
// round: 25 asking, 53 with the first suffix's bytes; 48 per suffix in the first: 10 asking, 38
// with its bytes), where all pairs at once (up to n / 2) would take up to 40. Windows are compared
// by two Karp-Rabin fingerprints (fingerprint.hpp, fresh random bases per run) rolled along the
// scan (text_lookups.hpp): two products per byte it rolls past; a scan jumps over stretches wider
// than the window to its next look-up, reading none of them from a file (skip_ahead), so that
// the last rounds, of few pairs, read little of the text. Two different windows of w bytes
// collide with probability below (w / 2^61)^2.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/detail/common.hpp>
#include <emflow/pipelines/sa/detail/esais/chained_reader.hpp>
#include <emflow/pipelines/sa/detail/esais/text_lookups.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>
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

namespace emflow::pipelines::sa::detail::esais {

//! An adjacent pair of S* suffixes still searching: positions a before b in suffix order, the
//! length l matched so far and the pair's index in suffix order.
template <class Index>
struct sstar_pair {
    Index a, b, lcp, idx;  //!< the two positions, l, the index
};

//! A pair's LCP found after the seeds.
template <class Index>
struct found_lcp {
    Index idx;  //!< the pair's index in suffix order
    Index lcp;  //!< its LCP
};

//! A pair asking about its first suffix, at pos = a + l.
template <class Index>
struct asking {
    Index pos;               //!< a + l
    sstar_pair<Index> pair;  //!< the pair
};

//! A pair with what its first suffix found (next_bytes or window_prints), to ask about its
//! second one at b + l.
template <class Index, class Found>
struct half_answered {
    sstar_pair<Index> pair;  //!< the pair
    Found first;             //!< what its first suffix found
};

//! A pair with the bytes its round matched.
template <class Index>
struct matched {
    sstar_pair<Index> pair;  //!< the pair
    std::uint64_t got;       //!< bytes matched
};

//! Asking pairs by their first suffix's position.
struct asking_by_pos {
    //! a < b
    template <class Asking>
    bool operator()(const Asking& a, const Asking& b) const {
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
};

//! The second suffix's position of a pair asking.
template <class Index>
std::uint64_t second_pos(const sstar_pair<Index>& p) {
    return std::uint64_t(p.b) + std::uint64_t(p.lcp);
}

//! Half-answered pairs by their second suffix's position.
struct half_by_second_pos {
    //! a < b
    template <class Half>
    bool operator()(const Half& a, const Half& b) const {
        return second_pos(a.pair) < second_pos(b.pair);
    }
};

//! An S* suffix's look-up in the first bytes round: past its run, and its index in suffix order.
template <class Index>
struct suffix_lookup {
    Index pos;  //!< its position plus its run
    Index k;    //!< its index in suffix order
};

//! The bytes an S* suffix found past its run.
template <class Index>
struct suffix_bytes {
    Index k;           //!< its index in suffix order
    next_bytes found;  //!< the bytes
};

//! Suffix bytes by index in suffix order.
struct by_suffix_index {
    //! a < b
    template <class Bytes>
    bool operator()(const Bytes& a, const Bytes& b) const {
        return std::uint64_t(a.k) < std::uint64_t(b.k);
    }
};

//! A growing pair in the order of its first suffix's position: its index in suffix order and
//! its shift from the pair before it in that order (0: it heads a chain, its LCP is searched).
template <class Index>
struct chain_link {
    Index idx;    //!< the pair's index in suffix order
    Index shift;  //!< its follower's shift, or 0
};

//! Pairs by their first suffix's position.
struct pair_by_first {
    //! a < b
    template <class Pair>
    bool operator()(const Pair& x, const Pair& y) const {
        return std::uint64_t(x.a) < std::uint64_t(y.a);
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
    using vec = ext_vector<T>;
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

    //! The seeds of sorted (in suffix order) into out, each with its S* suffix's LCP with the one
    //! before it (0 for the first) in its name.
    template <class OpenText, class Seeds>
    void run(OpenText& open_text, const Seeds& sorted, Seeds& out) {
        vec<found_lcp<Index>> found;
        found_t found_out(found);
        pairs_t growing;
        first_round(open_text, sorted, growing, found_out);
        search(open_text, growing, found_out);
        found_out.finish();
        merge_found(sorted, found, out);
    }

    //! The pairs of the last run() whose LCPs followed from the pair before them (1').
    std::uint64_t followers() const { return followers_; }

    //! The least budget of a round (run.memory_bytes): a window round's, whose two scans read
    //! the text with two readers each, all opened at the start. Opens the text, reads nothing.
    template <class OpenText>
    std::uint64_t least_budget(OpenText& open_text) {
        auto none = refill_source<asking<Index>>(
            [](asking<Index>*, std::size_t) { return std::size_t(0); });
        return least_memory(matches<window_prints>(std::move(none), open_text, 2 * bytes_round));
    }

private:
    //! from_seeds(): the seeds leave the LCP to the search.
    static constexpr std::uint64_t undecided = ~std::uint64_t(0);

    //! Round 0: the LCP of the S* suffix of s with the one of prev before it if their seeds
    //! decide it (different first bytes, or runs of it of different lengths), else undecided.
    static std::uint64_t from_seeds(const seed<Index>& prev, const seed<Index>& s) {
        if (prev.ch != s.ch) return 0;
        if (prev.run != s.run) return std::min(std::uint64_t(prev.run), std::uint64_t(s.run));
        return undecided;
    }

    //! Rounds 0 and 1 (file comment): the pairs of sorted that the seeds leave undecided into
    //! growing if their first bytes round matches all of its bytes, else their LCPs into found.
    //! The two S* suffixes of an undecided pair have the same run, so each suffix looks up the
    //! bytes past its own run once for both its pairs, a slice of suffixes per text scan: sorted
    //! by position, answered in one scan, sorted back into suffix order and zipped with the
    //! seeds (the last suffix of a slice pairs with the first of the next).
    template <class OpenText, class Seeds>
    void first_round(OpenText& open_text, const Seeds& sorted, pairs_t& growing, found_t& found) {
        const std::uint64_t m = sorted.size();
        vector_appender<pairs_t> grow(growing);
        typename Seeds::bufreader_type asking_in(sorted), zipped_in(sorted);
        std::uint64_t asked = 0, k = 0, decided = 0;
        seed<Index> prev{};
        next_bytes prev_bytes{};
        auto pos_of = [](const suffix_lookup<Index>& q) { return std::uint64_t(q.pos); };
        auto found_at = [](const suffix_lookup<Index>& q, const next_bytes& b) {
            return suffix_bytes<Index>{q.k, b};
        };
        auto zip = [&](const suffix_bytes<Index>& got) {
            if (std::uint64_t(got.k) != k || zipped_in.empty())
                throw std::logic_error("eSAIS S* LCPs: a suffix's bytes are missing");
            const seed<Index> s = *zipped_in;
            ++zipped_in;
            if (k == 0 || from_seeds(prev, s) != undecided) {
                ++decided;
            } else {
                const std::uint64_t same = common_bytes(prev_bytes, got.found);
                const pair_t p{prev.pos, s.pos, Index(std::uint64_t(s.run) + same), Index(k - 1)};
                if (same < bytes_round)
                    settled(found, p);
                else
                    grow << p;
            }
            prev = s;
            prev_bytes = got.found;
            ++k;
        };
        while (asked < m) {
            const std::uint64_t end = std::min(m, asked + slice_);
            auto lookups = refill_source<suffix_lookup<Index>>(
                [&asking_in, &asked, end](suffix_lookup<Index>* out, std::size_t cap) {
                    std::size_t i = 0;
                    for (; i < cap && asked < end; ++i, ++asked, ++asking_in) {
                        const seed<Index>& s = *asking_in;
                        out[i] = {Index(std::uint64_t(s.pos) + std::uint64_t(s.run)), Index(asked)};
                    }
                    return i;
                });
            materialize(sort(bytes_at(sort(std::move(lookups), asking_by_pos{}, opt_), open_text(),
                                      pos_of, found_at),
                             by_suffix_index{}, opt_),
                        sink<suffix_bytes<Index>>(zip), run_);
        }
        if (k != m) throw std::logic_error("eSAIS S* LCPs: a suffix's bytes are missing");
        grow.finish();
        ph_.add(decided, decided);
    }

    //! The LCPs of the pairs growing after the first bytes round into found: the chains' heads
    //! by rounds 2 to 4, their followers from them (file comment).
    template <class OpenText>
    void search(OpenText& open_text, pairs_t& growing, found_t& found) {
        vec<chain_link<Index>> chain;
        pairs_t heads;
        split_followers(growing, heads, chain);
        growing.clear();
        vec<found_lcp<Index>> head_lcps;
        found_t head_out(head_lcps);
        search_heads(open_text, heads, head_out);
        head_out.finish();
        resolve_followers(chain, head_lcps, found);
    }

    //! The growing pairs in the order of their first suffix's position into chain, and the heads
    //! among them into heads, each with its index in chain for its idx. A pair (a, b) follows
    //! (a0, b0), the pair before it in that order, if b - b0 = a - a0 = d and the LCP of (a0, b0)
    //! is at least d, which its l (a lower bound) shows: then its LCP is that of (a0, b0) less d.
    void split_followers(const pairs_t& growing, pairs_t& heads, vec<chain_link<Index>>& chain) {
        vector_appender<pairs_t> head(heads);
        vector_appender<vec<chain_link<Index>>> link(chain);
        std::uint64_t j = 0;
        pair_t q{};
        materialize(sort(streamify(growing), pair_by_first{}, opt_),
                    sink<pair_t>([&](const pair_t& p) {
                        const std::uint64_t d = std::uint64_t(p.a) - std::uint64_t(q.a);
                        if (j > 0 && std::uint64_t(p.b) == std::uint64_t(q.b) + d &&
                            d <= std::uint64_t(q.lcp)) {
                            link << chain_link<Index>{p.idx, Index(d)};
                        } else {
                            link << chain_link<Index>{p.idx, Index(0)};
                            head << pair_t{p.a, p.b, p.lcp, Index(j)};
                        }
                        q = p;
                        ++j;
                    }),
                    run_);
        head.finish();
        link.finish();
    }

    //! The LCPs of chain's pairs into found: a head's from head_lcps (by its index in chain), a
    //! follower's from the pair before it.
    void resolve_followers(const vec<chain_link<Index>>& chain, vec<found_lcp<Index>>& head_lcps,
                           found_t& found) {
        vec<found_lcp<Index>> sorted_heads;
        write_vector(sort(streamify(head_lcps), found_by_idx<Index>{}, opt_), sorted_heads, run_);
        head_lcps.clear();
        typename vec<found_lcp<Index>>::bufreader_type h(sorted_heads);
        std::uint64_t j = 0, lcp = 0, followers = 0;
        for (typename vec<chain_link<Index>>::bufreader_type r(chain); !r.empty(); ++r, ++j) {
            const chain_link<Index>& c = *r;
            if (std::uint64_t(c.shift) == 0) {
                if (h.empty() || std::uint64_t((*h).idx) != j)
                    throw std::logic_error("eSAIS S* LCPs: a chain's head is missing");
                lcp = (*h).lcp;
                ++h;
            } else {
                lcp -= std::uint64_t(c.shift);
                ++followers;
            }
            found << found_lcp<Index>{c.idx, Index(lcp)};
        }
        ph_.add(followers, followers);
        followers_ = followers;
    }

    //! Rounds 2 to 4 (file comment): the heads' LCPs into found. A round reads only the pairs
    //! that take part: the growing ones, then those failed at a window wider than the round's.
    template <class OpenText>
    void search_heads(OpenText& open_text, pairs_t& growing, found_t& found) {
        auto add = [](pair_t& p, std::uint64_t l) { p.lcp = Index(std::uint64_t(p.lcp) + l); };
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
    //! 0); then settle(pair, bytes matched) for each pair, in no particular order.
    template <class OpenText, class Settle>
    void round(OpenText& open_text, const std::vector<const pairs_t*>& parts, std::uint64_t w,
               Settle settle) {
        if (w == 0)
            round_of<next_bytes>(open_text, parts, w, settle);
        else
            round_of<window_prints>(open_text, parts, w, settle);
    }

    //! A round whose look-ups find Found, a slice of pairs at a time.
    template <class Found, class OpenText, class Settle>
    void round_of(OpenText& open_text, const std::vector<const pairs_t*>& parts, std::uint64_t w,
                  Settle& settle) {
        const std::uint64_t n = n_;
        auto asks = [n, w](const pair_t& p) {
            return std::max(std::uint64_t(p.a), std::uint64_t(p.b)) + std::uint64_t(p.lcp) + w <= n;
        };
        chained_reader<pairs_t> in(parts);
        while (!in.empty()) {
            pairs_t past_end;  // the slice's pairs that ask nothing
            {
                vector_appender<pairs_t> skip(past_end);
                std::uint64_t j = 0;
                auto pairs = refill_source<asking<Index>>(
                    [&in, &asks, &j, &skip, slice = slice_](asking<Index>* out, std::size_t cap) {
                        std::size_t k = 0;
                        for (; k < cap && !in.empty() && j < slice; ++in, ++j) {
                            const pair_t& p = *in;
                            if (asks(p))
                                out[k++] = {Index(std::uint64_t(p.a) + std::uint64_t(p.lcp)), p};
                            else
                                skip << p;
                        }
                        return k;
                    });
                materialize(
                    matches<Found>(std::move(pairs), open_text, w),
                    sink<matched<Index>>([&](const matched<Index>& m) { settle(m.pair, m.got); }),
                    run_);
                skip.finish();
            }
            for (typename pairs_t::bufreader_type r(past_end); !r.empty(); ++r) settle(*r, 0);
        }
    }

    //! A round's graph: the pairs sorted by their first suffix's position find Found there in
    //! one scan, then, sorted by their second suffix's position, compare it with what that one
    //! finds in a second scan.
    template <class Found, class Pairs, class OpenText>
    auto matches(Pairs&& pairs, OpenText& open_text, std::uint64_t w) {
        using half = half_answered<Index, Found>;
        auto first_pos = [](const asking<Index>& q) { return std::uint64_t(q.pos); };
        auto with_first = [](const asking<Index>& q, const Found& f) { return half{q.pair, f}; };
        auto by_first = sort(std::forward<Pairs>(pairs), asking_by_pos{}, opt_);
        auto pos_of_second = [](const half& h) { return second_pos(h.pair); };
        if constexpr (std::is_same_v<Found, next_bytes>) {
            auto match = [](const half& h, const next_bytes& b) {
                return matched<Index>{h.pair, common_bytes(h.first, b)};
            };
            return bytes_at(sort(bytes_at(std::move(by_first), open_text(), first_pos, with_first),
                                 half_by_second_pos{}, opt_),
                            open_text(), pos_of_second, match);
        } else {
            auto match = [w](const half& h, const window_prints& b) {
                const bool same = h.first.x == b.x && h.first.y == b.y;
                return matched<Index>{h.pair, same ? w : 0};
            };
            return windows_at(sort(windows_at(std::move(by_first), open_text(), open_text(), w,
                                              base_, first_pos, with_first),
                                   half_by_second_pos{}, opt_),
                              open_text(), open_text(), w, base_, pos_of_second, match);
        }
    }

    //! out: the seeds of sorted, each with its LCP from round 0 or, for the undecided, from found
    //! (pair idx gives the seed idx + 1's).
    template <class Seeds>
    void merge_found(const Seeds& sorted, vec<found_lcp<Index>>& found, Seeds& out) {
        vec<found_lcp<Index>> sorted_found;
        write_vector(sort(streamify(found), found_by_idx<Index>{}, opt_), sorted_found, run_);
        found.clear();
        typename vec<found_lcp<Index>>::bufreader_type f(sorted_found);
        vector_appender<Seeds> w(out);
        std::uint64_t k = 0;
        seed<Index> prev{};
        for (typename Seeds::bufreader_type r(sorted); !r.empty(); ++r, ++k) {
            seed<Index> s = *r;
            std::uint64_t lcp = k > 0 ? from_seeds(prev, s) : 0;
            if (lcp == undecided) {
                if (f.empty() || std::uint64_t((*f).idx) != k - 1)
                    throw std::logic_error("eSAIS S* LCPs: a pair's LCP is missing");
                lcp = (*f).lcp;
                ++f;
            }
            prev = s;
            s.name = Index(lcp);
            w << s;
        }
        w.finish();
    }

    std::uint64_t n_;
    std::uint64_t slice_;  // pairs per text scan
    run_options run_;
    sort_options opt_;
    progress::phase& ph_;
    std::array<std::uint64_t, 2> base_{};
    std::uint64_t followers_ = 0;
};

}  // namespace emflow::pipelines::sa::detail::esais
