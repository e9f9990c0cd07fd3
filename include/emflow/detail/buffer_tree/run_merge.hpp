// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/run_merge.hpp: merges the sorted runs of one vector in place, pass by
// pass: the root's held requests and its newly sorted ones (a loaded buffer's runs, and tree
// sort's reader, merge by algorithm::multiway_merge).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace emflow::detail::buffer_tree {

//! Merges the sorted runs of items (their begins in starts, then items' end) pairwise into one,
//! through scratch (resized to items); starts ends as {0, end}. A stable merge: of equal items,
//! those of an earlier run come first.
template <class T, class Less>
void merge_sorted_runs(std::vector<T>& items, std::vector<T>& scratch,
                       std::vector<std::size_t>& starts, const Less& less) {
    while (starts.size() > 2) {
        scratch.resize(items.size());
        const std::size_t r = starts.size() - 1;
        std::size_t w = 0;
        for (std::size_t i = 0; i < r; i += 2) {
            const auto mid = items.begin() + starts[std::min(i + 1, r)];
            std::merge(items.begin() + starts[i], mid, mid,
                       items.begin() + starts[std::min(i + 2, r)], scratch.begin() + starts[i],
                       less);
            starts[w++] = starts[i];
        }
        starts[w++] = starts[r];
        starts.resize(w);
        items.swap(scratch);
    }
}

}  // namespace emflow::detail::buffer_tree
