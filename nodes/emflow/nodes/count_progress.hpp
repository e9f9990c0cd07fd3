// emflow/nodes/count_progress.hpp: scanning node that counts the elements its consumer advances
// past into a progress phase (once per batch, so it costs nothing per element).
//
//   auto src = streamify(v) | count_progress(ph);            // bytes = items * sizeof(T)
//   auto txt = text | count_progress(ph, 1);                 // or any bytes per item
#pragma once

#include <emflow/node.hpp>
#include <emflow/progress.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace emflow {

//! Pull node passing src through, counting into a progress phase.
template <class Src>
class count_progress_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src counted into ph (which must outlive the run), bytes_per_item bytes per element.
    count_progress_node(Src&& src, progress::phase& ph, std::uint64_t bytes_per_item)
        : src_(std::forward<Src>(src)), ph_(&ph), bytes_per_item_(bytes_per_item) {}

    //! Starts src.
    void start(run_context& ctx) { src_.start(ctx); }
    //! True when src is empty.
    bool empty() { return src_.empty(); }
    //! src's current element.
    decltype(auto) operator*() { return *src_; }
    //! Advances by one.
    count_progress_node& operator++() { return *this += 1; }
    //! src's batch length.
    std::size_t batch_length() { return src_.batch_length(); }
    //! src's batch.
    auto batch_begin() { return src_.batch_begin(); }
    //! Advances by n, counting them.
    count_progress_node& operator+=(std::size_t n) {
        ph_->add(n, n * bytes_per_item_);
        src_ += n;
        return *this;
    }

private:
    stored_t<Src> src_;
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
