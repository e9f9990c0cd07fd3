// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/in_memory.hpp: the base case of the external recursion once a
// level's text fits in the budget: the suffix array in RAM by induced sorting (SA-IS: Nong, Zhang &
// Chan, "Linear Suffix Array Construction by Almost Pure Induced-Sorting", DCC 2009). It needs
// about three words per symbol where DC3 in RAM needed eight, so the external levels hand over a
// level or two earlier. Sequential. It runs where prefix doubling (in_memory_doubling.hpp) does not
// pay or gives up. Symbols are 1..sigma (the external levels' convention); a virtual 0 past the end
// makes a proper prefix sort first.
//
// The inducing scans are bound by cache misses (random reads of the text and the buckets), so
// they read the types from the text instead of the type bits, prefetch a few entries ahead, and
// reuse the buckets' starts where they fit (bench/sa/README.md, 8e30197).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::detail::dc3 {

//! Bytes that suffix_array_in_memory needs for n symbols of type I, with the text and the suffix
//! array: bucket arrays of at most n + 4 words, the types (a bit per symbol at each level).
template <class I>
constexpr std::uint64_t in_memory_bytes(std::uint64_t n) {
    return 3 * (n + 4) * sizeof(I) + n / 4 + 64;
}

namespace sais {

//! The suffix array of s[0..n) (symbols 1..sigma, a virtual 0 at n) into sa[0..n); sa may hold
//! nothing else. s may lie in the caller's sa beyond n (the recursion's reduced text does).
template <class I>
class induced_sorting {
public:
    induced_sorting(const I* s, std::size_t n, std::size_t sigma, I* sa)
        : s_(s), n_(n), sigma_(sigma), sa_(sa), stype_(n) {}

    void run() {
        classify();
        // Sort the LMS substrings: LMS positions at their buckets' ends, then induce.
        std::fill(sa_, sa_ + n_, empty);
        {
            std::vector<I> end = buckets(true);
            for (std::size_t i = 1; i < n_; ++i)
                if (is_lms(i)) sa_[--end[s_[i]]] = I(i);
        }
        induce();
        const std::size_t n1 = name_lms_substrings();
        // Sort the LMS suffixes: by recursion on the names while they are not unique.
        I* s1 = sa_ + n_ - n1;
        if (names_ < n1) {
            std::vector<bool>().swap(stype_);  // room for the recursion; made again below
            std::vector<I>().swap(starts_);
            induced_sorting<I>(s1, n1, names_, sa_).run();
            stype_.assign(n_, false);
            classify();
        } else {
            for (std::size_t k = 0; k < n1; ++k) sa_[s1[k] - 1] = I(k);
        }
        // The sorted LMS suffixes at their buckets' ends (largest first), then induce.
        for (std::size_t i = 1, k = 0; i < n_; ++i)
            if (is_lms(i)) s1[k++] = I(i);
        for (std::size_t k = 0; k < n1; ++k) sa_[k] = s1[sa_[k]];
        std::fill(sa_ + n1, sa_ + n_, empty);
        {
            std::vector<I> end = buckets(true);
            for (std::size_t k = n1; k-- > 0;) {
                const I j = sa_[k];
                sa_[k] = empty;
                sa_[--end[s_[j]]] = j;
            }
        }
        induce();
    }

private:
    static constexpr I empty = I(~I(0));
    //! How far ahead the inducing scans prefetch the text (and half as far, the buckets).
    static constexpr std::size_t ahead = 16;

    //! S-type (true) or L-type of every position; n - 1 is L-type (it precedes the virtual 0).
    void classify() {
        for (std::size_t i = n_ - 1; i-- > 0;)
            stype_[i] = s_[i] < s_[i + 1] || (s_[i] == s_[i + 1] && stype_[i + 1]);
    }
    //! True if i (0 < i < n) is leftmost S-type.
    bool is_lms(std::size_t i) const { return stype_[i] && !stype_[i - 1]; }
    //! The first (ends: one past the last) slot of every symbol's bucket. The starts are kept
    //! for the next call if they and a working copy take at most n words (in_memory_bytes).
    std::vector<I> buckets(bool ends) {
        std::vector<I> b;
        if (!starts_.empty()) {
            b = starts_;
        } else {
            b.assign(sigma_ + 2, 0);
            for (std::size_t i = 0; i < n_; ++i) ++b[s_[i] + 1];
            for (std::size_t c = 1; c < b.size(); ++c) b[c] += b[c - 1];
            if (2 * b.size() <= n_) starts_ = b;
        }
        if (ends) b.erase(b.begin());
        return b;
    }
    //! Induces the L-type suffixes from the S-type ones placed (and the virtual 0, which induces
    //! n - 1), then the S-type suffixes from the L-type ones.
    void induce() {
        {
            std::vector<I> head = buckets(false);
            sa_[head[s_[n_ - 1]]++] = I(n_ - 1);
            for (std::size_t i = 0; i < n_; ++i) {
                if (i + ahead < n_) prefetch_text(sa_[i + ahead]);
                if (i + ahead / 2 < n_) prefetch_bucket(sa_[i + ahead / 2], head);
                const I j = sa_[i];
                // Only L-type and LMS suffixes are placed yet, so j - 1 is L-type iff
                // s[j - 1] >= s[j].
                if (j != empty && j > 0 && s_[j - 1] >= s_[j]) sa_[head[s_[j - 1]]++] = I(j - 1);
            }
        }
        std::vector<I> end = buckets(true);
        for (std::size_t i = n_; i-- > 0;) {
            if (i >= ahead) prefetch_text(sa_[i - ahead]);
            if (i >= ahead / 2) prefetch_bucket(sa_[i - ahead / 2], end);
            const I j = sa_[i];
            if (j == empty || j == 0) continue;
            // j is S-type iff this scan placed it: at or after its bucket's end pointer.
            const I c = s_[j], p = s_[j - 1];
            if (p < c || (p == c && i >= end[c])) sa_[--end[p]] = I(j - 1);
        }
    }
    //! Prefetches s[j - 1] (and s[j]) of the entry j.
    void prefetch_text(I j) const {
        if (j != empty && j > 0) __builtin_prefetch(s_ + j - 1);
    }
    //! Prefetches the pointer in b of the bucket the entry j induces into.
    void prefetch_bucket(I j, const std::vector<I>& b) const {
        if (j != empty && j > 0) __builtin_prefetch(b.data() + s_[j - 1]);
    }
    //! True if the LMS substrings at a and b (up to the next LMS position) are equal.
    bool same_substring(std::size_t a, std::size_t b) const {
        for (std::size_t d = 0;; ++d) {
            if (a + d == n_ || b + d == n_) return false;  // only one of them ends at the 0
            if (s_[a + d] != s_[b + d] || stype_[a + d] != stype_[b + d]) return false;
            if (d > 0) {
                const bool la = is_lms(a + d), lb = is_lms(b + d);
                if (la || lb) return la && lb;
            }
        }
    }
    //! Moves the sorted LMS positions to sa[0..n1) and their names (1..names_), in text order,
    //! to sa[n - n1..n); returns n1. Names go to sa[n1 + i / 2] first: LMS positions are at
    //! least two apart, and n1 <= n / 2.
    std::size_t name_lms_substrings() {
        std::size_t n1 = 0;
        for (std::size_t i = 0; i < n_; ++i)
            if (sa_[i] > 0 && is_lms(sa_[i])) sa_[n1++] = sa_[i];
        std::fill(sa_ + n1, sa_ + n_, empty);
        names_ = 0;
        for (std::size_t k = 0; k < n1; ++k) {
            if (k == 0 || !same_substring(sa_[k], sa_[k - 1])) ++names_;
            sa_[n1 + sa_[k] / 2] = I(names_);
        }
        for (std::size_t i = n_, j = n_; i-- > n1;)
            if (sa_[i] != empty) sa_[--j] = sa_[i];
        return n1;
    }

    const I* s_;
    std::size_t n_, sigma_;
    I* sa_;
    std::vector<bool> stype_;
    std::vector<I> starts_;  // the buckets' starts, if kept (buckets())
    std::size_t names_ = 0;
};

}  // namespace sais

//! Writes the suffix array of s[0..n) to sa[0..n); the symbols are 1..sigma.
template <class I>
void suffix_array_in_memory(const I* s, std::size_t n, std::size_t sigma, I* sa) {
    if (n > 0) sais::induced_sorting<I>(s, n, sigma, sa).run();
}

}  // namespace emflow::pipelines::sa::detail::dc3
