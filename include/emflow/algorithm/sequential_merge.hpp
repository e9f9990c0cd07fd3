// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/sequential_merge.hpp: the sequential multiway merge under the PPQ's parallel one
// (ppq/parallel_algorithms.hpp), and so under the merges of every external sort.
//
// libstdc++ merges 3 or 4 sequences with unrolled code that keeps their order in the program
// counter, and more with a loser tree whose every level waits for the comparison below it: about
// twice the cost per item for 5 sequences, 3x for 16 (bench/merge/README.md). So more than 4
// sequences are merged as a cascade of those unrolled merges: the first items of all sequences
// are cut off by multisequence selection (libstdc++'s multiseq_partition), up to four groups of
// sequences are merged each into a scratch buffer, and the groups' outputs merged into the
// target; a group of more than four sequences is a cascade again. Each item is copied once more
// per level, which costs less than the loser tree's extra levels. The scratch is thread-local:
// up to 512 KiB per level (16 sequences need one level, 64 two), reused by every merge.
#pragma once

// First, in a block of its own (clang-format sorts within blocks): the two internal headers of
// libstdc++'s parallel mode below are not self-contained.
#include <parallel/algorithm>

#include <parallel/multiseq_selection.h>
#include <parallel/multiway_merge.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace emflow::algorithm {

//! A sorted range of items [first, second).
template <class T>
using sequence = std::pair<T*, T*>;

namespace detail {

//! Merges the first length items of the k sequences into target with libstdc++'s kernels
//! (unrolled up to 4 sequences, its loser tree beyond); advances the sequences.
template <class T, class Order>
void merge_libstdcxx(sequence<T>* seqs, std::size_t k, T* target, std::size_t length,
                     const Order& order) {
    // Called directly: the public multiway_merge binds its unused sentinel to *seqs[0].second,
    // past the end of a buffer. 2 sequences get an empty third: libstdc++'s 3-way code is faster
    // than its 2-way merge.
    if (k == 0) return;
    T none{};
    const auto merge = [&](sequence<T>* s, std::size_t n) {
        __gnu_parallel::__sequential_multiway_merge</*stable=*/false, /*sentinels=*/false>(
            s, s + n, target, none, std::ptrdiff_t(length), order);
    };
    if (k != 2) return merge(seqs, k);
    sequence<T> three[3] = {seqs[0], seqs[1], {&none, &none}};
    merge(three, 3);
    std::copy(three, three + 2, seqs);
}

//! Items a cascade merges at a time: what its scratch per level holds.
template <class T>
constexpr std::size_t cascade_items() {
    return std::max<std::size_t>(4096, (std::size_t(512) << 10) / sizeof(T));
}

//! The calling thread's scratch of cascade level `level`: cascade_items<T>() items.
template <class T>
T* cascade_scratch(std::size_t level) {
    static thread_local std::vector<std::unique_ptr<T[]>> levels;
    while (levels.size() <= level) levels.emplace_back(new T[cascade_items<T>()]);
    return levels[level].get();
}

//! Merges all total items (at most cascade_items<T>()) of the k sequences into target.
template <class T, class Order>
void merge_all_cascaded(sequence<T>* seqs, std::size_t k, T* target, std::size_t total,
                        const Order& order, std::size_t level) {
    if (k <= 4) return merge_libstdcxx(seqs, k, target, total, order);
    T* scratch = cascade_scratch<T>(level);
    sequence<T> groups[4];
    for (std::size_t g = 0, begin = 0; g < 4; ++g) {
        const std::size_t end = k * (g + 1) / 4;
        if (end - begin == 1) {
            groups[g] = seqs[begin];  // a single sequence is merged as it is
        } else {
            std::size_t n = 0;
            for (std::size_t i = begin; i < end; ++i)
                n += std::size_t(seqs[i].second - seqs[i].first);
            merge_all_cascaded(seqs + begin, end - begin, scratch, n, order, level + 1);
            groups[g] = {scratch, scratch + n};
            scratch += n;
        }
        begin = end;
    }
    merge_libstdcxx(groups, 4, target, total, order);
}

//! Merges the first min(length, total) items of the sequences into target; advances them.
template <class T, class Order>
void merge_sequential(std::vector<sequence<T>>& seqs, T* target, std::size_t length,
                      const Order& order) {
    // Each cascade pass cuts its items off by multisequence selection, which costs about as much
    // as merging a hundred items per sequence: short merges of many sequences go to the loser tree.
    if (seqs.size() <= 4 || std::min(length, cascade_items<T>()) < 128 * seqs.size())
        return merge_libstdcxx(seqs.data(), seqs.size(), target, length, order);
    std::size_t left = 0;
    for (const auto& s : seqs) left += std::size_t(s.second - s.first);
    std::vector<sequence<T>*> ne;  // the non-empty sequences: multiseq_partition needs them
    std::vector<sequence<T>> part;
    std::vector<T*> cut;
    for (length = std::min(length, left); length > 0;) {
        ne.clear();
        for (auto& s : seqs)
            if (s.first != s.second) ne.push_back(&s);
        const std::size_t k = ne.size(), n = std::min(length, cascade_items<T>());
        part.resize(k);
        cut.resize(k);
        for (std::size_t i = 0; i < k; ++i) part[i] = *ne[i];
        if (n == left)
            for (std::size_t i = 0; i < k; ++i) cut[i] = part[i].second;
        else
            __gnu_parallel::multiseq_partition(part.begin(), part.end(), std::ptrdiff_t(n),
                                               cut.begin(), order);
        // Only the sequences with items in this pass are merged: where sequences hardly overlap
        // (ascending input), that is one or two, and libstdc++'s kernel merges them directly.
        std::size_t live = 0;
        for (std::size_t i = 0; i < k; ++i)
            if (part[i].first != cut[i]) part[live++] = {part[i].first, cut[i]};
        merge_all_cascaded(part.data(), live, target, n, order, 0);
        for (std::size_t i = 0; i < k; ++i) ne[i]->first = cut[i];
        target += n;
        length -= n;
        left -= n;
    }
}

}  // namespace detail
}  // namespace emflow::algorithm
