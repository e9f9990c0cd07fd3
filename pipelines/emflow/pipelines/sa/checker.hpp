// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/checker.hpp: checks a suffix array in external memory, for any length,
// with two sorts (Dementiev, Kärkkäinen, Mehnert, Sanders, "Better External Memory Suffix Array
// Construction", the checker of section 3):
//   1. the pairs (SA[k], k) sorted by position must hold exactly the positions 0..n-1 (a
//      permutation); in that order their k is the inverse ISA;
//   2. suffix i < suffix j exactly when (T[i], ISA[i+1]) < (T[j], ISA[j+1]), the empty suffix
//      ranking lowest: the triples (ISA[i], T[i], ISA[i+1]) sorted by ISA[i] must increase
//      strictly in (T[i], ISA[i+1]).
// It is one graph under the budget: the runtime assigns it to the three phases (runs of sort 1;
// its merge beside the runs of sort 2; the merge of sort 2 and the final scan).
//
//   auto r = check_suffix_array<std::uint32_t>([&] { return streamify(text); }, text.size(),
//                                              [&] { return streamify(sa); }, sa.size());
//   if (!r.ok) std::cerr << r.reason;
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/erased.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace emflow::pipelines::sa {

//! The verdict of a check: ok, or the first violation found.
struct check_result {
    bool ok = true;      //!< the array is the suffix array of the text
    std::string reason;  //!< otherwise: what is wrong, naming a position or rank
};

namespace detail::checker {

//! Raised inside the checking graph at the first violation; carries the reason out.
struct violation : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! (position, rank) of one suffix-array entry.
template <class Index>
struct pos_rank {
    Index pos, rank;
};

//! Orders pos_rank by position (ranks break no ties: positions are checked to be distinct).
template <class Index>
struct by_pos {
    bool operator()(const pos_rank<Index>& a, const pos_rank<Index>& b) const {
        return std::uint64_t(a.pos) < std::uint64_t(b.pos);
    }
    pos_rank<Index> min_value() const { return {Index(0), Index(0)}; }
    pos_rank<Index> max_value() const {
        return {std::numeric_limits<Index>::max(), std::numeric_limits<Index>::max()};
    }
};

//! For the suffix at rank `rank`: its first character and the rank of the next suffix plus one
//! (0: the next suffix is empty).
template <class Index>
struct rank_triple {
    Index rank, next;
    std::uint8_t c;
};

//! Orders rank_triple by rank.
template <class Index>
struct by_rank {
    bool operator()(const rank_triple<Index>& a, const rank_triple<Index>& b) const {
        return std::uint64_t(a.rank) < std::uint64_t(b.rank);
    }
    rank_triple<Index> min_value() const { return {Index(0), Index(0), 0}; }
    rank_triple<Index> max_value() const {
        return {std::numeric_limits<Index>::max(), std::numeric_limits<Index>::max(), 0xFF};
    }
};

//! Why an array of length entries cannot be checked against an n-byte text with indices of
//! Index (empty: it can).
template <class Index>
std::string refusal(std::uint64_t n, std::uint64_t length) {
    if (length != n)
        return "the array has " + std::to_string(length) + " entries, the text " +
               std::to_string(n) + " bytes";
    if (n > max_text_length<Index>())
        return "the text of " + std::to_string(n) + " bytes is too long for " +
               std::to_string(sizeof(Index)) + "-byte indices";
    return {};
}

//! Step 1, the refill of (SA[k], k): entries out of range rejected before they reach the sorter.
template <class Index>
struct position_ranks {
    std::uint64_t n;      //!< the text's length
    std::uint64_t k = 0;  //!< the entry read next

    //! Up to cap pairs from src (the suffix array) into out.
    template <class Src>
    std::size_t operator()(Src& src, pos_rank<Index>* out, std::size_t cap) {
        std::size_t m = 0;
        while (m < cap && !src.empty()) {
            std::size_t len = std::min(src.batch_length(), cap - m);
            auto b = src.batch_begin();
            for (std::size_t i = 0; i < len; ++i, ++k) {
                std::uint64_t p = b[i];
                if (p >= n)
                    throw violation("SA[" + std::to_string(k) + "] = " + std::to_string(p) +
                                    " is not a position of the text (length " + std::to_string(n) +
                                    ")");
                out[m++] = {Index(p), Index(k)};
            }
            src += len;
        }
        return m;
    }
};

//! Step 2, the refill of the triples: in position order, the permutation check, then
//! (ISA[i], T[i], ISA[i+1] + 1).
template <class Index>
struct rank_triples {
    std::uint64_t n;            //!< the text's length
    std::uint64_t i = 0;        //!< the position read next
    rank_triple<Index> prev{};  //!< position i - 1's, its next rank still to come

    //! Up to cap triples from src (zipped text bytes and pairs by position) into out.
    template <class Src>
    std::size_t operator()(Src& src, rank_triple<Index>* out, std::size_t cap) {
        std::size_t m = 0;
        while (m < cap && !src.empty()) {
            std::size_t len = std::min(src.batch_length(), cap - m);
            auto b = src.batch_begin();
            for (std::size_t j = 0; j < len; ++j, ++i) {
                auto [c, pr] = b[j];
                check_position(pr);
                if (i > 0) out[m++] = {prev.rank, Index(std::uint64_t(pr.rank) + 1), prev.c};
                prev = {pr.rank, Index(0), c};
            }
            src += len;
        }
        if (m == 0 && i == n && n > 0) {  // the last suffix: the next one is empty
            out[m++] = prev;
            ++i;
        }
        return m;
    }

private:
    //! pr, the i-th by position, must be at position i.
    void check_position(const pos_rank<Index>& pr) const {
        const std::uint64_t pos = pr.pos;
        if (pos == i) return;
        throw violation(pos < i
                            ? "position " + std::to_string(pos) + " occurs twice (again at SA[" +
                                  std::to_string(std::uint64_t(pr.rank)) + "])"
                            : "position " + std::to_string(i) + " is missing");
    }
};

//! Step 3, the batch sink of the triples by rank: adjacent suffixes ordered.
template <class Index>
struct order_checker {
    std::uint64_t k = 0;        //!< the rank checked next
    rank_triple<Index> last{};  //!< rank k - 1's

    //! Checks the triples p[0..len).
    void operator()(const rank_triple<Index>* p, std::size_t len) {
        for (std::size_t j = 0; j < len; ++j, ++k) {
            const rank_triple<Index>& t = p[j];
            if (k > 0 && !(last.c < t.c ||
                           (last.c == t.c && std::uint64_t(last.next) < std::uint64_t(t.next))))
                throw violation("the suffixes at SA[" + std::to_string(k - 1) + "] and SA[" +
                                std::to_string(k) + "] are out of order");
            last = t;
        }
    }
};

//! check_suffix_array() on any sources: the pairs (1) sorted by position, joined with the text
//! into triples (2), sorted by rank and checked (3), in one graph.
template <class Index, class OpenText, class OpenSA>
check_result check(OpenText& open_text, std::uint64_t n, OpenSA& open_sa, std::uint64_t sa_length,
                   const sa_options& cfg) {
    if (std::string why = refusal<Index>(n, sa_length); !why.empty()) return {false, why};
    const sort_options opt{cfg.mode == pipelining::parallel, cfg.mode == pipelining::parallel};
    auto sa = open_sa();
    auto pairs = refill_transform<pos_rank<Index>>(sa, position_ranks<Index>{n});
    auto phase1 = begin_phase(cfg.report, "check: sort by position", n * sizeof(Index));
    auto by_position = pairs | count_progress(phase1, sizeof(Index)) | sort(by_pos<Index>{}, opt);
    auto text = open_text();
    auto joined = zip(text, by_position);
    auto triples = refill_transform<rank_triple<Index>>(joined, rank_triples<Index>{n});
    auto phase2 = begin_phase(cfg.report, "check: sort by rank", n * sizeof(Index));
    auto by_rank_order =
        triples | count_progress(phase2, sizeof(Index)) | sort(by_rank<Index>{}, opt);
    run_options run;
    run.memory_bytes = cfg.memory_bytes;
    try {
        materialize(by_rank_order, batch_sink<rank_triple<Index>>(order_checker<Index>{}), run);
    } catch (const violation& v) {
        return {false, v.what()};
    }
    return {};
}

//! The arrays as the checks read them: one source type for every caller.
template <class Index>
using index_source = std::function<any_pull_source<Index>()>;

//! The check for one index type. Defined out of line so that emflow/pipelines/sa/compiled.hpp can
//! declare it compiled in the library emflow::sa.
template <class Index>
struct per_index {
    //! check() on the erased sources.
    static check_result check(text_source& text, std::uint64_t n, index_source<Index>& sa,
                              std::uint64_t sa_length, const sa_options& cfg);
};

template <class Index>
check_result per_index<Index>::check(text_source& text, std::uint64_t n, index_source<Index>& sa,
                                     std::uint64_t sa_length, const sa_options& cfg) {
    return detail::checker::check<Index>(text, n, sa, sa_length, cfg);
}

}  // namespace detail::checker

//! Checks that the array read by open_sa() (sa_length entries of Index) is the suffix array of
//! the n-byte text read by open_text(). Both callables return a fresh pull node each call.
//! A wrong array gives ok == false and the reason; I/O errors throw, and a budget below the
//! graph's least memory is a config_error.
template <class Index, class OpenText, class OpenSA>
check_result check_suffix_array(OpenText&& open_text, std::uint64_t n, OpenSA&& open_sa,
                                std::uint64_t sa_length, const sa_options& cfg = {}) {
    // Erased (one indirect call per batch), so that the check compiles once per index type.
    text_source text = erase_text(open_text);
    detail::checker::index_source<Index> sa = [&open_sa] {
        return any_pull_source<Index>(open_sa());
    };
    return detail::checker::per_index<Index>::check(text, n, sa, sa_length, cfg);
}

}  // namespace emflow::pipelines::sa
