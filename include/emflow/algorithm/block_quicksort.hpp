// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/block_quicksort.hpp: a sequential comparison sort for the PPQ's runs, written
// from the idea of BlockQuicksort (Edelkamp and Weiss, "BlockQuicksort: Avoiding Branch
// Mispredictions in Quicksort", ESA 2016).
//
// Quicksort's partition step mispredicts about every second branch on random keys. Here the
// comparisons of a block of items against the pivot only *record* the offsets of misplaced items
// (the comparison result is added to a counter, no branch depends on it); the misplaced items of
// a left and a right block are then swapped in a second loop whose branches are predictable.
// Around it: ninther pivots (median of three medians of three), insertion sort for short ranges,
// recursion on the smaller part, a depth limit of 2 log2 n partitions after which a range is heap
// sorted (std::sort's O(n log n) guarantee), and ranges whose pivot equals the item before them
// (which is at most every item of the range) put all items equal to it aside at once, so that
// inputs with few distinct keys take O(n log distinct) time.
//
// parallel_block_quicksort partitions the top levels sequentially and sorts the parts as oneTBB
// tasks (tbb::parallel_invoke), block quicksort at the leaves.
//
// Exceptions: if the comparator throws, the exception propagates (from a oneTBB task too) and
// [first, last) holds a permutation of its items (every item that is taken out of the range during
// a comparison is put back first); T must be trivially copyable.
#pragma once

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace emflow::algorithm {

namespace detail {

constexpr std::ptrdiff_t block = 128;           // items per block; offsets fit in a byte
constexpr std::ptrdiff_t insertion_limit = 24;  // shorter ranges are insertion sorted
constexpr std::ptrdiff_t ninther_limit = 128;   // longer ranges take the median of 9

template <class T>
void swap_items(T* a, T* b) {
    T t = *a;
    *a = *b;
    *b = t;
}

//! Sorts [first, last) by insertion.
template <class T, class Less>
void insertion_sort(T* first, T* last, Less& less) {
    if (last - first < 2) return;
    for (T* i = first + 1; i != last; ++i) {
        T item = *i;
        T* hole = i;
        try {
            while (hole != first && less(item, hole[-1])) {
                *hole = hole[-1];
                --hole;
            }
        } catch (...) {
            *hole = item;  // the range stays a permutation
            throw;
        }
        *hole = item;
    }
}

//! Moves the item at i down the max-heap [first, first + n) by swaps (no item held outside).
template <class T, class Less>
void sift_down(T* first, std::ptrdiff_t n, std::ptrdiff_t i, Less& less) {
    for (;;) {
        std::ptrdiff_t child = 2 * i + 1;
        if (child >= n) return;
        if (child + 1 < n && less(first[child], first[child + 1])) ++child;
        if (!less(first[i], first[child])) return;
        swap_items(first + i, first + child);
        i = child;
    }
}

//! Heap sort: the fallback when partitions keep coming out unbalanced.
template <class T, class Less>
void heap_sort(T* first, T* last, Less& less) {
    const std::ptrdiff_t n = last - first;
    for (std::ptrdiff_t i = n / 2; i-- > 0;) sift_down(first, n, i, less);
    for (std::ptrdiff_t end = n - 1; end > 0; --end) {
        swap_items(first, first + end);
        sift_down(first, end, 0, less);
    }
}

//! Orders *a, *b, *c so that *b is their median.
template <class T, class Less>
void sort3(T* a, T* b, T* c, Less& less) {
    if (less(*b, *a)) swap_items(a, b);
    if (less(*c, *b)) {
        swap_items(b, c);
        if (less(*b, *a)) swap_items(a, b);
    }
}

//! Moves a pivot candidate (median of 3 or of 9) to *first.
template <class T, class Less>
void choose_pivot(T* first, T* last, Less& less) {
    const std::ptrdiff_t n = last - first, half = n / 2;
    T* mid = first + half;
    if (n > ninther_limit) {
        const std::ptrdiff_t step = n / 8;
        sort3(first + 1, first + step, first + 2 * step, less);
        sort3(mid - step, mid, mid + step, less);
        sort3(last - 1 - 2 * step, last - 1 - step, last - 1, less);
        sort3(first + step, mid, last - 1 - step, less);
    } else {
        sort3(first + 1, mid, last - 1, less);
    }
    swap_items(first, mid);
}

//! Block partition of [first + 1, last) around the pivot at *first: items with
//! goes_left(x) first. Puts the pivot between the two parts and returns its position.
template <class T, class GoesLeft>
T* partition(T* first, T* last, GoesLeft goes_left) {
    std::uint8_t off_l[block], off_r[block];
    T* l = first + 1;  // [first + 1, l): left part; the left block starts at l
    T* r = last;       // [r, last): right part; the right block ends at r
    // Pending misplaced items of the scanned left block: l[off_l[start_l .. start_l + num_l)];
    // of the right block: r[-1 - off_r[start_r .. start_r + num_r)].
    std::ptrdiff_t num_l = 0, num_r = 0, start_l = 0, start_r = 0, size_l = 0, size_r = 0;
    for (;;) {
        const std::ptrdiff_t unscanned = (r - l) - (num_l ? size_l : 0) - (num_r ? size_r : 0);
        if (num_l == 0 && num_r == 0) {
            if (unscanned == 0) break;
            size_l = unscanned >= 2 * block ? block : unscanned / 2;
            size_r = unscanned >= 2 * block ? block : unscanned - size_l;
        } else if (num_l == 0) {
            if (unscanned == 0) break;
            size_l = unscanned < block ? unscanned : block;
        } else {
            if (unscanned == 0) break;
            size_r = unscanned < block ? unscanned : block;
        }
        if (num_l == 0) {
            start_l = 0;
            for (std::ptrdiff_t i = 0; i < size_l; ++i) {
                off_l[num_l] = std::uint8_t(i);
                num_l += !goes_left(l[i]);
            }
        }
        if (num_r == 0) {
            start_r = 0;
            for (std::ptrdiff_t i = 0; i < size_r; ++i) {
                off_r[num_r] = std::uint8_t(i);
                num_r += goes_left(r[-1 - i]);
            }
        }
        // Swap min(num_l, num_r) misplaced pairs as one cycle (one copy per item moved).
        const std::ptrdiff_t n = num_l < num_r ? num_l : num_r;
        if (n > 0) {
            T* a = l + off_l[start_l];
            T* b = r - 1 - off_r[start_r];
            T held = *a;
            *a = *b;
            for (std::ptrdiff_t k = 1; k < n; ++k) {
                a = l + off_l[start_l + k];
                *b = *a;
                b = r - 1 - off_r[start_r + k];
                *a = *b;
            }
            *b = held;
        }
        num_l -= n;
        num_r -= n;
        start_l += n;
        start_r += n;
        if (num_l == 0) l += size_l;
        if (num_r == 0) r -= size_r;
    }
    // At most one block still has misplaced items, and [l, r) is exactly that block: move them
    // to its far end, the last one first.
    T* boundary;
    if (num_l) {
        while (num_l) {
            --num_l;
            swap_items(l + off_l[start_l + num_l], --r);
        }
        boundary = r;
    } else if (num_r) {
        while (num_r) {
            --num_r;
            swap_items(r - 1 - off_r[start_r + num_r], l++);
        }
        boundary = l;
    } else {
        boundary = l;
    }
    swap_items(first, boundary - 1);
    return boundary - 1;
}

//! Sorts [first, last); has_pred: first[-1] is at most every item of the range.
template <class T, class Less>
void sort_loop(T* first, T* last, Less& less, int depth, bool has_pred) {
    while (last - first > insertion_limit) {
        if (depth-- == 0) {
            heap_sort(first, last, less);
            return;
        }
        choose_pivot(first, last, less);
        const T pivot = *first;
        if (has_pred && !less(first[-1], pivot)) {
            // The pivot equals the item before the range: the items equal to it are done.
            T* p = partition(first, last, [&](const T& x) { return !less(pivot, x); });
            first = p + 1;
            continue;
        }
        T* p = partition(first, last, [&](const T& x) { return less(x, pivot); });
        // Recurse into the smaller part, loop on the larger (stack depth O(log n)).
        if (p - first < last - (p + 1)) {
            sort_loop(first, p, less, depth, has_pred);
            first = p + 1;
            has_pred = true;
        } else {
            sort_loop(p + 1, last, less, depth, true);
            last = p;
        }
    }
    insertion_sort(first, last, less);
}

//! 2 log2 n: the number of partitions before a range is heap sorted.
inline int depth_limit(std::ptrdiff_t n) {
    int depth = 0;
    for (; n > 1; n >>= 1) depth += 2;
    return depth;
}

//! sort_loop with the two parts of every partition of a range longer than grain sorted in
//! parallel (oneTBB tasks).
template <class T, class Less>
void parallel_sort_loop(T* first, T* last, Less& less, int depth, bool has_pred,
                        std::ptrdiff_t grain) {
    while (last - first > grain && depth > 0) {
        --depth;
        choose_pivot(first, last, less);
        const T pivot = *first;
        if (has_pred && !less(first[-1], pivot)) {
            first = partition(first, last, [&](const T& x) { return !less(pivot, x); }) + 1;
            continue;
        }
        T* p = partition(first, last, [&](const T& x) { return less(x, pivot); });
        tbb::parallel_invoke([&] { parallel_sort_loop(first, p, less, depth, has_pred, grain); },
                             [&] { parallel_sort_loop(p + 1, last, less, depth, true, grain); });
        return;
    }
    sort_loop(first, last, less, depth, has_pred);
}

}  // namespace detail

//! Sorts [first, last) ascending by less (a strict weak order), not stably; O(n log n).
template <class T, class Less>
void block_quicksort(T* first, T* last, Less less) {
    static_assert(std::is_trivially_copyable_v<T>, "block_quicksort copies items bitwise");
    detail::sort_loop(first, last, less, detail::depth_limit(last - first), false);
}

//! block_quicksort with parts sorted in parallel by the oneTBB threads of the calling arena,
//! in about 8 tasks per thread.
template <class T, class Less>
void parallel_block_quicksort(T* first, T* last, Less less, unsigned threads) {
    static_assert(std::is_trivially_copyable_v<T>, "block_quicksort copies items bitwise");
    const std::ptrdiff_t grain =
        std::max<std::ptrdiff_t>(1 << 14, (last - first) / (8 * std::ptrdiff_t(threads)));
    detail::parallel_sort_loop(first, last, less, detail::depth_limit(last - first), false, grain);
}

}  // namespace emflow::algorithm
