// emflow/pipelines/sa/dc3/in_memory.hpp: DC3 in RAM (Kärkkäinen & Sanders 2003, with counting
// sorts), the base case of the external recursion once a level's text fits in the budget. Uses
// the external levels' conventions: symbols 1..sigma, 0 past the end, the reduced text holds the
// 1-mod-3 sample (plus the dummy position n when n mod 3 == 1) then the 2-mod-3 sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::dc3_detail {

//! Bytes that suffix_array_in_memory needs for n symbols of type I (the text, the suffix array
//! and every level's reduced text and suffix array, with room to spare).
template <class I>
constexpr std::uint64_t in_memory_bytes(std::uint64_t n) {
    return 8 * (n + 4) * sizeof(I);
}

//! Stable counting sort of the positions in[0..count) into out by key[in[k]] in 0..sigma.
template <class I>
void counting_sort(const I* in, I* out, std::size_t count, const I* key, std::size_t sigma) {
    std::vector<I> start(sigma + 2, 0);
    for (std::size_t k = 0; k < count; ++k) ++start[key[in[k]] + 1];
    for (std::size_t c = 1; c <= sigma + 1; ++c) start[c] += start[c - 1];
    for (std::size_t k = 0; k < count; ++k) out[start[key[in[k]]]++] = in[k];
}

//! Writes the suffix array of s[0..n) to sa[0..n); the symbols are 1..sigma and s[n..n+3) == 0.
template <class I>
void suffix_array_in_memory(const I* s, std::size_t n, std::size_t sigma, I* sa) {
    if (n == 0) return;
    const std::size_t n0 = (n + 2) / 3, n2 = n / 3, m = n0 + n2;
    auto position = [&](std::size_t j) { return j < n0 ? 3 * j + 1 : 3 * (j - n0) + 2; };
    auto reduced = [&](std::size_t i) { return i % 3 == 1 ? i / 3 : n0 + i / 3; };

    // Sort the sample by its triples (three stable passes, last symbol first) and name them.
    std::vector<I> r(m + 3, 0), sa12(m + 3, 0);
    {
        std::vector<I> a(m), b(m);
        for (std::size_t j = 0; j < m; ++j) a[j] = I(position(j));
        counting_sort(a.data(), b.data(), m, s + 2, sigma);
        counting_sort(b.data(), a.data(), m, s + 1, sigma);
        counting_sort(a.data(), b.data(), m, s, sigma);
        std::size_t name = 0;
        for (std::size_t k = 0; k < m; ++k) {
            const I* t = s + b[k];
            if (k == 0 || t[0] != s[b[k - 1]] || t[1] != s[b[k - 1] + 1] || t[2] != s[b[k - 1] + 2])
                ++name;
            r[reduced(b[k])] = I(name);
        }
        if (name < m) {
            std::vector<I>().swap(a);  // the recursion needs the room
            std::vector<I>().swap(b);
            suffix_array_in_memory(r.data(), m, name, sa12.data());
            for (std::size_t k = 0; k < m; ++k) r[sa12[k]] = I(k + 1);
        } else {
            for (std::size_t j = 0; j < m; ++j) sa12[r[j] - 1] = I(j);
        }
    }
    // r is now the rank of every sample suffix (by reduced position); 0 past the end.
    auto rank = [&](std::size_t i) -> std::size_t {
        if (i % 3 == 1) return i / 3 < n0 ? std::size_t(r[i / 3]) : 0;
        return i / 3 < n2 ? std::size_t(r[n0 + i / 3]) : 0;
    };

    // Class 0 in the order of (T[i], r[i+1]): by r[i+1] from sa12, then stably by T[i].
    std::vector<I> sa0(n0), by_next(n0);
    for (std::size_t k = 0, q = 0; k < m; ++k)
        if (sa12[k] < n0) by_next[q++] = I(3 * sa12[k]);
    counting_sort(by_next.data(), sa0.data(), n0, s, sigma);
    std::vector<I>().swap(by_next);

    // Merge class 0 with the sample (skipping the dummy position n) by the DC3 comparisons.
    std::size_t k0 = 0, k12 = 0, out = 0;
    while (out < n) {
        std::size_t j = k12 < m ? position(sa12[k12]) : n;
        if (j >= n && k12 < m) {
            ++k12;  // the dummy
            continue;
        }
        if (k0 == n0) {
            sa[out++] = I(j);
            ++k12;
            continue;
        }
        std::size_t i = sa0[k0];
        bool sample_first = false;
        if (k12 < m) {
            if (j % 3 == 1)
                sample_first = s[j] < s[i] || (s[j] == s[i] && rank(j + 1) < rank(i + 1));
            else
                sample_first =
                    s[j] < s[i] ||
                    (s[j] == s[i] &&
                     (s[j + 1] < s[i + 1] || (s[j + 1] == s[i + 1] && rank(j + 2) < rank(i + 2))));
        }
        if (sample_first) {
            sa[out++] = I(j);
            ++k12;
        } else {
            sa[out++] = I(i);
            ++k0;
        }
    }
}

}  // namespace emflow::pipelines::sa::dc3_detail
