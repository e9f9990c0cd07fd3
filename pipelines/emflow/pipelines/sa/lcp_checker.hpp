// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/lcp_checker.hpp: checks an LCP array in external memory, for any length,
// given the text and its (correct) suffix array. LCP[0] must be 0, and for every k >= 1, with
// i = SA[k-1], j = SA[k] and h = LCP[k]:
//   1. the prefixes of length h of suffixes i and j are equal: their Karp-Rabin fingerprints
//      agree (P[x]: the fingerprint of T[0..x); T[x..x+h) has P[x+h] - P[x] * B^h modulo the
//      Mersenne prime 2^61 - 1, with a random base B per check);
//   2. they differ right after: T[i+h] != T[j+h], or one of the suffixes ends there.
// Together: h is the longest common prefix (1. wrong with probability about h / 2^61 per pair).
// The fingerprints are joined by sorting: the pairs ask for P at SA[k] (both pairs that suffix
// belongs to use it), at SA[k-1] + h and at SA[k] + h with the byte there; the requests sorted by
// position meet one scan of the text, the answers sorted back by k are checked in one scan.
// The pairs come in slices (at most n / 8 by default), one graph under the budget each, assigned
// to its phases by the runtime: the sorts' temporary disk holds one slice's requests and answers.
//
//   auto from = [](const auto& v) {
//       return [&v](std::uint64_t k) { return streamify(v.begin() + k, v.end()); };
//   };
//   auto r = check_lcp_array<std::uint32_t>([&] { return streamify(text); }, text.size(),
//                                           from(sa), from(lcp), lcp.size());
//   if (!r.ok) std::cerr << r.reason;
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/checker.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/erased.hpp>
#include <emflow/pipelines/sa/fingerprint.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>

namespace emflow::pipelines::sa {

namespace detail::lcp_checker {

using fingerprint::modulus;
using fingerprint::mul_mod;
using fingerprint::pow_mod;

//! What a pair asks for: P at pos. slot 0: pos = SA[k] (the pairs k and k+1 use it); 1: the end
//! of the common prefix in suffix SA[k-1]; 2: in suffix SA[k] (h = LCP[k] rides along).
template <class Index>
struct request {
    Index pos;          //!< the text position
    Index k;            //!< the pair (suffix-array index)
    Index h;            //!< LCP[k] (slot 2)
    std::uint8_t slot;  //!< see above
};

//! Requests by position.
template <class Index>
struct by_position {
    using T = request<Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
    //! Below every request.
    T min_value() const { return T{}; }
    //! Above every request.
    T max_value() const {
        T t{};
        t.pos = std::numeric_limits<Index>::max();
        return t;
    }
};

//! A request answered: P at its position and the byte there (256: the end of the text).
template <class Index>
struct answer {
    std::uint64_t fp;   //!< P[pos]
    Index k;            //!< the pair
    Index h;            //!< LCP[k] (slot 2)
    std::uint16_t ch;   //!< T[pos], 256 at pos = n
    std::uint8_t slot;  //!< the request's slot
};

//! Answers by pair, then slot.
template <class Index>
struct by_pair {
    using T = answer<Index>;
    //! a < b
    bool operator()(const T& a, const T& b) const {
        if (a.k != b.k) return std::uint64_t(a.k) < std::uint64_t(b.k);
        return a.slot < b.slot;
    }
    //! Below every answer.
    T min_value() const { return T{}; }
    //! Above every answer.
    T max_value() const {
        T t{};
        t.k = std::numeric_limits<Index>::max();
        t.slot = 0xFF;
        return t;
    }
};

//! A pull node of T whose batches f(a, b, out, capacity) -> count fills from the nodes a and b,
//! which it starts (both must outlive it).
template <class T, class A, class B, class F>
auto refill_from_two(A& a, B& b, F f) {
    return connect(connect(refill_source<T>([&a, &b, f](T* out, std::size_t cap) mutable {
                               return f(a, b, out, cap);
                           }),
                           a),
                   b);
}

using detail::checker::refusal;
using detail::checker::violation;

//! "LCP[k] = h is too large|small: the suffixes at SA[k-1] and SA[k] <what>".
inline violation wrong_lcp(std::uint64_t k, std::uint64_t h, const char* how, const char* what) {
    return violation("LCP[" + std::to_string(k) + "] = " + std::to_string(h) + " is too " + how +
                     ": the suffixes at SA[" + std::to_string(k - 1) + "] and SA[" +
                     std::to_string(k) + "] " + what);
}

//! Step 3, the batch sink of the answers sorted by pair: per pair, equal prefixes and different
//! next bytes. Its state runs on from slice to slice.
template <class Index>
struct pair_checker {
    std::uint64_t base;                       //!< the fingerprints' base
    std::uint64_t prev_start = 0, start = 0;  //!< P[SA[k-1]], P[SA[k]]
    answer<Index> first_end{};                //!< slot 1 of the current pair

    //! Checks the pairs whose answers are complete in p[0..len).
    void operator()(const answer<Index>* p, std::size_t len) {
        for (std::size_t q = 0; q < len; ++q) {
            const answer<Index>& a = p[q];
            if (a.slot == 0) {
                prev_start = start;
                start = a.fp;
            } else if (a.slot == 1) {
                first_end = a;
            } else {
                check_pair(a);
            }
        }
    }

private:
    //! a: slot 2 of pair a.k, whose slots 0 and 1 came before.
    void check_pair(const answer<Index>& a) const {
        const std::uint64_t bh = pow_mod(base, a.h);
        auto sub = [](std::uint64_t x, std::uint64_t y) {
            return x >= y ? x - y : x + modulus - y;
        };
        if (sub(first_end.fp, mul_mod(prev_start, bh)) != sub(a.fp, mul_mod(start, bh)))
            throw wrong_lcp(a.k, a.h, "large", "differ before");
        if (first_end.ch == a.ch) throw wrong_lcp(a.k, a.h, "small", "agree on the next byte");
    }
};

//! Step 1, the refill of the requests: three per pair (one for k = 0) of the entries [from,
//! end), lengths beyond a suffix rejected; a slice after the first reads the pair before it for
//! SA[first - 1] only.
template <class Index>
struct request_maker {
    std::uint64_t k;           //!< the entry read next
    std::uint64_t first, end;  //!< the slice's pairs
    std::uint64_t n;           //!< the text's length
    std::uint64_t prev = 0;    //!< SA[k - 1]

    //! Up to cap requests from src (zipped SA and LCP entries) into out.
    template <class Src>
    std::size_t operator()(Src& src, request<Index>* out, std::size_t cap) {
        std::size_t m = 0;
        for (; m + 3 <= cap && k < end && !src.empty(); ++k, ++src) {
            auto [s, l] = *src;
            const std::uint64_t j = s;
            if (k >= first) m += requests_of(j, l, out + m);  // else checked in the slice before
            prev = j;
        }
        if (k < end && src.empty())
            throw violation("the suffix or LCP array ends after " + std::to_string(k) +
                            " entries, not " + std::to_string(n));
        return m;
    }

private:
    //! The requests of pair k (SA[k] = j, LCP[k] = h) into out; returns their number.
    std::size_t requests_of(std::uint64_t j, std::uint64_t h, request<Index>* out) const {
        if (j >= n)
            throw violation("SA[" + std::to_string(k) + "] = " + std::to_string(j) +
                            " is not a position of the text (length " + std::to_string(n) + ")");
        if (k == 0 && h != 0) throw violation("LCP[0] = " + std::to_string(h) + ", not 0");
        out[0] = {Index(j), Index(k), Index(0), 0};
        if (k == 0) return 1;
        if (h > n - std::max(prev, j))
            throw violation("LCP[" + std::to_string(k) + "] = " + std::to_string(h) +
                            " is longer than the suffix at SA[" +
                            std::to_string(prev < j ? k : k - 1) + "]");
        out[1] = {Index(prev + h), Index(k), Index(0), 1};
        out[2] = {Index(j + h), Index(k), Index(h), 2};
        return 3;
    }
};

//! Step 2, the refill of the answers: one scan of the text gives P[x] (and T[x]) at each
//! requested position x, the requests sorted by position.
template <class Index>
struct prefix_scanner {
    std::uint64_t base;    //!< the fingerprints' base
    std::uint64_t x = 0;   //!< the text position reached
    std::uint64_t fp = 0;  //!< P[x]

    //! Up to cap answers to the requests reqs, read along txt, into out.
    template <class Requests, class Text>
    std::size_t operator()(Requests& reqs, Text& txt, answer<Index>* out, std::size_t cap) {
        std::size_t m = 0;
        for (; m < cap && !reqs.empty(); ++reqs) {
            const request<Index> r = *reqs;
            advance_to(txt, r.pos);
            out[m++] = {fp, r.k, r.h, std::uint16_t(txt.empty() ? 256 : *txt), r.slot};
        }
        return m;
    }

private:
    //! Reads txt up to position p (within the text: the requests were checked).
    template <class Text>
    void advance_to(Text& txt, std::uint64_t p) {
        while (x < p) {
            const std::size_t len = std::size_t(std::min<std::uint64_t>(txt.batch_length(), p - x));
            const std::uint8_t* b = txt.batch_begin();
            for (std::size_t i = 0; i < len; ++i) {
                fp = mul_mod(fp, base) + b[i] + 1;
                if (fp >= modulus) fp -= modulus;
            }
            txt += len;
            x += len;
        }
    }
};

//! What the slices' graphs share: the sources, the sorts' options, the progress phases (in
//! requests, three per pair, counted as sizeof(Index) bytes each) and the budget.
template <class OpenText, class OpenSA, class OpenLCP>
struct slice_graphs {
    OpenText& open_text;                 //!< the text
    OpenSA& open_sa;                     //!< the suffix array from an entry on
    OpenLCP& open_lcp;                   //!< the LCP array from an entry on
    sort_options opt;                    //!< the sorts'
    progress::phase& by_position_phase;  //!< the requests' sort
    progress::phase& by_rank_phase;      //!< the answers' sort
    run_options run;                     //!< the budget
};

//! Checks the pairs [first, end) of n in one graph: requests (1), sorted by position, answered
//! by a scan of the text (2), sorted back by pair and checked (3).
template <class Index, class Graphs>
void check_slice(Graphs& g, std::uint64_t first, std::uint64_t end, std::uint64_t n,
                 std::uint64_t base, pair_checker<Index>& pairs) {
    const std::uint64_t from = first > 0 ? first - 1 : 0;
    auto sa = g.open_sa(from);
    auto lcp = g.open_lcp(from);
    auto entries = zip(sa, lcp);
    auto requests = emflow::refill_transform<request<Index>>(
        entries, request_maker<Index>{from, first, end, n});
    auto by_pos = requests | count_progress(g.by_position_phase, sizeof(Index)) |
                  sort(by_position<Index>{}, g.opt);
    auto text = g.open_text();
    auto answers = refill_from_two<answer<Index>>(by_pos, text, prefix_scanner<Index>{base});
    auto by_k =
        answers | count_progress(g.by_rank_phase, sizeof(Index)) | sort(by_pair<Index>{}, g.opt);
    materialize(by_k, batch_sink<answer<Index>>([&pairs](const answer<Index>* p, std::size_t len) {
                    pairs(p, len);
                }),
                g.run);
}

//! check_lcp_array() on any sources.
template <class Index, class OpenText, class OpenSA, class OpenLCP>
check_result check(OpenText& open_text, std::uint64_t n, OpenSA& open_sa, OpenLCP& open_lcp,
                   std::uint64_t lcp_length, const sa_options& cfg, std::uint64_t slice_pairs) {
    if (std::string why = refusal<Index>(n, lcp_length); !why.empty()) return {false, why};
    const bool parallel = cfg.mode == pipelining::parallel;
    const std::uint64_t slice =
        slice_pairs ? slice_pairs : std::max<std::uint64_t>(n / 8, std::uint64_t(1) << 16);
    std::random_device entropy;
    pair_checker<Index> pairs{fingerprint::random_base(entropy)};
    auto phase1 = begin_phase(cfg.report, "check LCP: sort by position", 3 * n * sizeof(Index));
    auto phase2 = begin_phase(cfg.report, "check LCP: sort by rank", 3 * n * sizeof(Index));
    run_options run;
    run.memory_bytes = cfg.memory_bytes;
    slice_graphs<OpenText, OpenSA, OpenLCP> graphs{
        open_text, open_sa, open_lcp, sort_options{parallel, parallel}, phase1, phase2, run};
    try {
        for (std::uint64_t first = 0; first < n; first += slice)
            check_slice<Index>(graphs, first, std::min(n, first + slice), n, pairs.base, pairs);
    } catch (const violation& v) {
        return {false, v.what()};
    }
    return {};
}

//! The arrays as the check reads them: one source type for every caller.
template <class Index>
using index_source = std::function<any_pull_source<Index>(std::uint64_t)>;

//! The check for one index type. Defined out of line so that emflow/pipelines/sa/compiled.hpp can
//! declare it compiled in the library emflow::sa.
template <class Index>
struct per_index {
    //! check() on the erased sources.
    static check_result check(text_source& text, std::uint64_t n, index_source<Index>& sa,
                              index_source<Index>& lcp, std::uint64_t lcp_length,
                              const sa_options& cfg, std::uint64_t slice_pairs);
};

template <class Index>
check_result per_index<Index>::check(text_source& text, std::uint64_t n, index_source<Index>& sa,
                                     index_source<Index>& lcp, std::uint64_t lcp_length,
                                     const sa_options& cfg, std::uint64_t slice_pairs) {
    return detail::lcp_checker::check<Index>(text, n, sa, lcp, lcp_length, cfg, slice_pairs);
}

}  // namespace detail::lcp_checker

//! Checks that the array read by open_lcp() (lcp_length entries of Index) is the LCP array of
//! the n-byte text read by open_text() whose suffix array open_sa() reads (check that one with
//! check_suffix_array first: a wrong suffix array makes this verdict meaningless). open_text()
//! returns a fresh pull node of the text, open_sa(k) and open_lcp(k) fresh ones of their arrays
//! from entry k on. The pairs are taken in slices of at most slice_pairs (0: n / 8, at least
//! 2^16), one text scan each, so that the sorts hold a slice's requests and answers, not all of
//! them. A wrong array gives ok == false and the reason; I/O errors throw, and a budget below
//! the graph's least memory is a config_error.
template <class Index, class OpenText, class OpenSA, class OpenLCP>
check_result check_lcp_array(OpenText&& open_text, std::uint64_t n, OpenSA&& open_sa,
                             OpenLCP&& open_lcp, std::uint64_t lcp_length,
                             const sa_options& cfg = {}, std::uint64_t slice_pairs = 0) {
    // Erased (one indirect call per batch), so that the check compiles once per index type.
    text_source text = erase_text(open_text);
    detail::lcp_checker::index_source<Index> sa = [&open_sa](std::uint64_t k) {
        return any_pull_source<Index>(open_sa(k));
    };
    detail::lcp_checker::index_source<Index> lcp = [&open_lcp](std::uint64_t k) {
        return any_pull_source<Index>(open_lcp(k));
    };
    return detail::lcp_checker::per_index<Index>::check(text, n, sa, lcp, lcp_length, cfg,
                                                        slice_pairs);
}

}  // namespace emflow::pipelines::sa
