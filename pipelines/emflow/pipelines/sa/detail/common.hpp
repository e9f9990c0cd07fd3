// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/common.hpp: what the suffix constructions' flow graphs share: the
// page cache of the external vector a graph writes, the run settings that leave room for it, the
// vector writer, and a scan that calls its function once per element in order.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa::detail {

//! The page cache of an external vector while it is written: the one buffer of a level's graphs
//! that no node declares.
inline constexpr std::uint64_t page_cache_bytes = 2 * vector_block_bytes;

//! The settings of a graph of an external level: the budget but the page cache of the vector it
//! may write.
inline run_options graph_run(const sa_options& cfg) {
    run_options run;
    run.memory_bytes = std::size_t(cfg.memory_bytes - page_cache_bytes);
    return run;
}

//! Writes src into v (replaced), a run with the settings run; v's page cache exists only
//! meanwhile.
template <class Src, class V>
void write_vector(Src&& src, V& v, const run_options& run = {}) {
    v.allocate_page_cache();
    materialize(std::forward<Src>(src), v, run);
    v.deallocate_page_cache();
}

//! Pull node applying f(x) to every element x of src exactly once, in order (f may keep state,
//! unlike transform's).
template <class Src, class F>
class scan_map : public buffered_pull<scan_map<Src, F>,
                                      std::decay_t<std::invoke_result_t<F&, const value_t<Src>&>>> {
    using T = std::decay_t<std::invoke_result_t<F&, const value_t<Src>&>>;
    friend class buffered_pull<scan_map, T>;

public:
    //! f over src.
    scan_map(Src&& src, F f) : src_(std::forward<Src>(src)), f_(std::move(f)) {}

    //! Starts src, declares the buffer.
    void start(run_context& ctx) {
        src_.start(ctx);
        this->declare_buffer(ctx, "DC3 scan chunk");
    }

private:
    std::size_t refill(T* out, std::size_t cap) {
        if (src_.empty()) return 0;
        std::size_t k = std::min(src_.batch_length(), cap);
        auto in = src_.batch_begin();
        for (std::size_t i = 0; i < k; ++i) out[i] = f_(in[i]);
        src_ += k;
        return k;
    }

    stored_t<Src> src_;
    F f_;
};

//! f over src, once per element in order.
template <class Src, class F>
auto map_each(Src&& src, F f) {
    return scan_map<Src, F>(std::forward<Src>(src), std::move(f));
}

}  // namespace emflow::pipelines::sa::detail
