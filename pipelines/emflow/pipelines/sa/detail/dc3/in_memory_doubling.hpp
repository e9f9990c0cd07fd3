// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/in_memory_doubling.hpp: the in-memory base case's first attempt:
// prefix doubling that refines only the groups of suffixes whose prefixes are still equal (Manber &
// Myers 1993; Larsson & Sadakane, "Faster suffix sorting", 2007).
//
// Why before SA-IS: a deep DC3 level's text is names of long substrings, so most of its suffixes
// differ in the first symbol and most of the rest in a few more (source code three levels deep:
// 65% of the suffixes alone in their bucket, 0.8 n suffixes refined over all rounds). Doubling then
// touches a shrinking fraction of the text per round, where SA-IS pays several cache misses per
// suffix in each of its scans whatever the text. Doubling's work has no linear bound, so it does
// not start when more than three quarters of the suffixes share their first symbol with another
// (a text of bytes, or the first levels' names of short substrings), and it gives
// up once its rounds have refined `work_limit` suffixes; SA-IS then runs on the ranks it leaves
// (the ranks of the h-prefixes are a text with the same suffix array).
//
// Memory: the text, turned into the ranks in place, and n 64-bit pairs (sort key, position): three
// words per symbol, as SA-IS (in_memory_bytes), plus a bit per symbol for the groups' starts.
// In parallel, oneTBB tasks refine the groups starting in ranges of the suffix array, each round in
// two steps (keys and sorting, then the new ranks) so that no task reads a rank another one writes.
#pragma once

#include <emflow/algorithm/block_quicksort.hpp>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::dc3 {

namespace prefix_doubling {

//! One bit per suffix-array slot 0..n: set where a group of equal prefixes starts (n: the end).
//! Tasks of one step set bits of the same word, so bits are set and read atomically.
class group_starts {
public:
    //! Slots 0..n, none set but n (and the padding past it, so that scans stop there).
    explicit group_starts(std::size_t n) : words_(n / 64 + 2, 0), n_(n) {
        for (std::size_t k = n; k < words_.size() * 64; ++k) words_[k / 64] |= bit(k);
    }
    //! Marks slot k as a group's start.
    void set(std::size_t k) { __atomic_fetch_or(&words_[k / 64], bit(k), __ATOMIC_RELAXED); }
    //! The first slot >= k that starts a group (n at the latest).
    std::size_t next_set(std::size_t k) const { return scan(k, 0, words_.size()); }
    //! The first slot in [k, limit) that starts no group, or limit if there is none.
    std::size_t next_clear(std::size_t k, std::size_t limit) const {
        return std::min(limit, scan(k, ~std::uint64_t(0), (limit + 63) / 64));
    }

private:
    static std::uint64_t bit(std::size_t k) { return std::uint64_t(1) << (k % 64); }
    std::uint64_t word(std::size_t w) const {
        return __atomic_load_n(&words_[w], __ATOMIC_RELAXED);
    }
    //! The first slot >= k whose bit differs from flip's, looking at words before end_word;
    //! end_word * 64 if none.
    std::size_t scan(std::size_t k, std::uint64_t flip, std::size_t end_word) const {
        std::size_t w = k / 64;
        if (w >= end_word) return end_word * 64;
        std::uint64_t x = (word(w) ^ flip) & (~std::uint64_t(0) << (k % 64));
        while (x == 0) {
            if (++w == end_word) return end_word * 64;
            x = word(w) ^ flip;
        }
        return w * 64 + std::size_t(__builtin_ctzll(x));
    }

    std::vector<std::uint64_t> words_;
    std::size_t n_;
};

inline std::uint32_t position(std::uint64_t p) { return std::uint32_t(p); }
inline std::uint32_t key(std::uint64_t p) { return std::uint32_t(p >> 32); }

//! The refinement of one text: s[i] is 1 + the first slot of i's group (the rank of its prefix of
//! length h), pairs[k] holds the suffix in slot k (low half) and, while its group is refined, its
//! sort key (high half).
class refinement {
public:
    refinement(std::uint32_t* s, std::size_t n, std::uint64_t* pairs, bool parallel)
        : s_(s), n_(n), pairs_(pairs), starts_(n), parallel_(parallel),
          threads_(parallel ? unsigned(tbb::this_task_arena::max_concurrency()) : 1),
          first_((n + range - 1) / range) {}

    //! Bucket sort by the first symbol (1..sigma, sigma <= n); false (s untouched) if more
    //! than three quarters of the suffixes share their first symbol with another.
    bool first_symbol(std::size_t sigma) {
        // The buckets' sizes, then starts, in the high halves of pairs[c - 1] for symbol c. In
        // parallel, each task reads the whole text and counts the symbols of its share.
        for_each_share(sigma, [this](std::size_t lo, std::size_t hi) {
            for (std::size_t i = 0; i < n_; ++i)
                if (s_[i] > lo && s_[i] <= hi) pairs_[s_[i] - 1] += std::uint64_t(1) << 32;
        });
        std::size_t grouped = 0;
        for (std::size_t c = 0; c < sigma; ++c)
            if (key(pairs_[c]) > 1) grouped += key(pairs_[c]);
        if (4 * grouped > 3 * n_) return false;
        std::uint64_t start = 0;
        for (std::size_t c = 0; c < sigma; ++c) {
            const std::uint64_t size = key(pairs_[c]);
            pairs_[c] = start << 32;
            start += size;
        }
        for_each_index(n_, [this](std::size_t i) { s_[i] = key(pairs_[s_[i] - 1]) + 1; });
        std::fill(pairs_, pairs_ + sigma, 0);
        // Each bucket's fill count in its first slot's high half, the suffixes in the low halves;
        // in parallel, each task places the suffixes whose buckets start in its share.
        for_each_share(n_, [this](std::size_t lo, std::size_t hi) {
            for (std::size_t i = 0; i < n_; ++i) {
                const std::size_t b = s_[i] - 1;
                if (b < lo || b >= hi) continue;
                const std::size_t k = b + key(pairs_[b]);
                pairs_[b] += std::uint64_t(1) << 32;
                pairs_[k] = (pairs_[k] & ~std::uint64_t(0xffffffff)) | i;
            }
        });
        for_each_index(first_.size(), [this](std::size_t r) {
            for (std::size_t k = r * range; k < std::min(n_, (r + 1) * range); ++k)
                if (key(pairs_[k]) != 0) starts_.set(k);
        });
        return true;
    }

    //! Refines the groups of equal prefixes of length h to length 2h; returns the suffixes in
    //! groups refined (0: all sorted).
    std::size_t round(std::size_t h) {
        std::vector<std::size_t> refined(first_.size(), 0);
        for_each_index(first_.size(), [&](std::size_t r) {
            first_[r] = starts_.next_set(r * range);
            refined[r] = for_groups(r, [&](std::size_t a, std::size_t b) { sort_group(a, b, h); });
        });
        for_each_index(first_.size(), [&](std::size_t r) {
            for_groups(r, [&](std::size_t a, std::size_t b) { rank_group(a, b); });
        });
        std::size_t total = 0;
        for (std::size_t x : refined) total += x;
        return total;
    }

private:
    //! Slots per range of the suffix array (one task's share of a round).
    static constexpr std::size_t range = 1 << 16;
    //! Groups at least this long are sorted by parallel tasks themselves.
    static constexpr std::size_t parallel_group = 1 << 16;

    //! Calls f(lo, hi) for the threads' shares of [0, count), in parallel.
    template <class F>
    void for_each_share(std::size_t count, F&& f) {
        for_each_index(threads_,
                       [&](std::size_t t) { f(count * t / threads_, count * (t + 1) / threads_); });
    }

    //! Calls f(r) for r in [0, count), in parallel if the refinement is.
    template <class F>
    void for_each_index(std::size_t count, F&& f) {
        if (parallel_ && count > 1)
            tbb::parallel_for(std::size_t(0), count, f);
        else
            for (std::size_t r = 0; r < count; ++r) f(r);
    }

    //! Calls f(a, b) for each group [a, b) of two or more suffixes that starts in range r;
    //! returns their suffixes. Finds each group's end before f may mark slots inside it.
    template <class F>
    std::size_t for_groups(std::size_t r, F&& f) {
        const std::size_t end = std::min(n_, (r + 1) * range);
        std::size_t done = 0;
        for (std::size_t a = first_[r]; a < end;) {
            const std::size_t inner = starts_.next_clear(a + 1, end + 1);  // a group's 2nd slot
            if (inner > end) break;
            a = inner - 1;
            const std::size_t b = starts_.next_set(inner);
            f(a, b);
            done += b - a;
            a = b;
        }
        return done;
    }

    //! Sorts the group [a, b) by the ranks h further on (0 past the end: a proper prefix first).
    void sort_group(std::size_t a, std::size_t b, std::size_t h) {
        constexpr std::size_t ahead = 8;
        for (std::size_t k = a; k < b; ++k) {
            if (k + ahead < b && position(pairs_[k + ahead]) + h < n_)
                __builtin_prefetch(s_ + position(pairs_[k + ahead]) + h);
            const std::uint32_t i = position(pairs_[k]);
            const std::uint64_t next = i + h < n_ ? s_[i + h] : 0;
            pairs_[k] = next << 32 | i;
        }
        if (b - a == 2) {
            if (pairs_[a + 1] < pairs_[a]) std::swap(pairs_[a], pairs_[a + 1]);
        } else if (parallel_ && b - a >= parallel_group) {
            algorithm::parallel_block_quicksort(pairs_ + a, pairs_ + b, std::less<std::uint64_t>(),
                                                threads_);
        } else {
            algorithm::block_quicksort(pairs_ + a, pairs_ + b, std::less<std::uint64_t>());
        }
    }

    //! New ranks for the sorted group [a, b): the first slot of each run of equal keys.
    void rank_group(std::size_t a, std::size_t b) {
        std::size_t g = a;
        for (std::size_t k = a; k < b; ++k) {
            if (k > a && key(pairs_[k]) != key(pairs_[k - 1])) {
                g = k;
                starts_.set(k);
            }
            s_[position(pairs_[k])] = std::uint32_t(g + 1);
        }
    }

    std::uint32_t* s_;
    std::size_t n_;
    std::uint64_t* pairs_;
    group_starts starts_;
    bool parallel_;
    unsigned threads_;
    std::vector<std::size_t> first_;  // per range: its first group's start, found before ranking
};

}  // namespace prefix_doubling

//! The suffix array of s (symbols 1..sigma, a virtual 0 past the end) into the low halves of
//! pairs, by prefix doubling; parallel: by the oneTBB threads of the calling arena. Returns false
//! if doubling does not pay or gives up after refining work_limit suffixes: then pairs is empty
//! and s holds a text with the same suffix array, symbols 1..sigma (sigma updated).
inline bool suffix_array_by_doubling(std::vector<std::uint32_t>& s, std::size_t& sigma,
                                     std::vector<std::uint64_t>& pairs, bool parallel,
                                     std::uint64_t work_limit) {
    const std::size_t n = s.size();
    pairs.clear();
    if (n < 2 || sigma > n) return false;  // tiny texts, and no room to count the buckets
    pairs.assign(n, 0);
    prefix_doubling::refinement sort(s.data(), n, pairs.data(), parallel);
    bool sorted = sort.first_symbol(sigma);
    if (sorted) {
        sigma = n;  // s now holds ranks 1..n
        std::uint64_t work = 0;
        for (std::size_t h = 1;; h *= 2) {
            const std::size_t refined = sort.round(h);
            if (refined == 0) break;
            work += refined;
            if (work > work_limit) {
                sorted = false;
                break;
            }
        }
    }
    if (!sorted) std::vector<std::uint64_t>().swap(pairs);
    return sorted;
}

//! suffix_array_by_doubling's default work limit for n symbols: twice the text.
constexpr std::uint64_t doubling_work_limit(std::uint64_t n) { return 2 * n; }

}  // namespace emflow::pipelines::sa::detail::dc3
