// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/count_progress.hpp: scanning node that counts the elements its consumer advances
// past into a progress phase (once per batch, so it costs nothing per element).
//
//   auto src = streamify(v) | count_progress(ph);            // bytes = items * sizeof(T)
//   auto txt = text | count_progress(ph, 1);                 // or any bytes per item
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pass_through.hpp>
#include <emflow/progress.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace emflow {

//! Pull node passing src through, counting into a progress phase.
template <class Src>
class count_progress_node : public pass_through<count_progress_node<Src>, Src> {
public:
    //! src counted into ph (which must outlive the run), bytes_per_item bytes per element.
    count_progress_node(Src&& src, progress::phase& ph, std::uint64_t bytes_per_item)
        : pass_through<count_progress_node, Src>(std::forward<Src>(src)), ph_(&ph),
          bytes_per_item_(bytes_per_item) {}

    //! Advances by one.
    count_progress_node& operator++() { return *this += 1; }
    //! Advances by n, counting them.
    count_progress_node& operator+=(std::size_t n) {
        ph_->add(n, n * bytes_per_item_);
        this->src() += n;
        return *this;
    }

private:
    progress::phase* ph_;
    std::uint64_t bytes_per_item_;
};

//! src counted into ph.
template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto count_progress(Src&& src, progress::phase& ph,
                    std::uint64_t bytes_per_item = sizeof(value_t<Src>)) {
    return count_progress_node<Src>(std::forward<Src>(src), ph, bytes_per_item);
}

//! Stage for `src | count_progress(ph)` (bytes_per_item 0: the element's size).
inline auto count_progress(progress::phase& ph, std::uint64_t bytes_per_item = 0) {
    return make_stage([&ph, bytes_per_item](auto&& src) {
        using S = decltype(src);
        return count_progress(std::forward<S>(src), ph,
                              bytes_per_item ? bytes_per_item : sizeof(value_t<S>));
    });
}

}  // namespace emflow
