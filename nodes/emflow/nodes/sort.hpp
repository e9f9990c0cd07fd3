// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/sort.hpp: sorting node, pull in and pull out, with a memory budget. It is a
// sorter_node fed from src: with async runs (the default) src is read by its own segment
// (Figure 5: an async pull in front of run creation, tasks of one run each) that overlaps with
// the sorting of the previous run; otherwise the whole input is read at the first pull.
//
// Memory: src is started one phase below the node (emflow/memory_budget.hpp): the runs are
// formed in src's phase, the merge runs in the phase the node is pulled in.
//
//   auto sorted = src | sort(by_first{}, 256 << 20);   // or sort(by_first{}): the run's budget
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/sorter.hpp>
#include <emflow/requirements.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace emflow {

//! Pull node: src sorted by cmp.
template <class Src, class Cmp>
class sort_node {
    static_assert(is_order_of_v<Cmp, value_t<Src>>,
                  "emflow::sort(cmp): cmp must be callable as cmp(const T&, const T&) -> bool "
                  "with T the source's element type (std::less<> needs an operator< for T)");

public:
    using value_type = value_t<Src>;  //!< element type

    //! src sorted by cmp within memory_bytes (0: as the run's budget assigns).
    sort_node(Src&& src, Cmp cmp, std::size_t memory_bytes, sort_options opt)
        : src_(std::forward<Src>(src)), sorter_(cmp, memory_bytes, opt), async_(opt.async_runs) {}

    //! Starts src and the sorter; spawns the reading segment (async runs).
    void start(run_context& ctx) {
        {
            memory_plan::below runs_phase(ctx.memory());
            src_.start(ctx);
            sorter_.start(ctx);
        }
        ctx.memory().declare_run_long("sort read chunk",
                                      memory_demand::fixed(default_chunk * sizeof(value_type)));
        ctx_ = &ctx;
        if (async_) spawn_read();
    }
    //! True when every sorted element was pulled.
    bool empty() {
        if (!async_ && !read_) read_all();
        return sorter_.empty();
    }
    //! Current element.
    const value_type& operator*() { return *batch_begin(); }
    //! Advances by one.
    sort_node& operator++() { return *this += 1; }
    //! Sorted elements buffered.
    std::size_t batch_length() { return empty() ? 0 : sorter_.batch_length(); }
    //! The buffered sorted elements.
    const value_type* batch_begin() { return sorter_.batch_begin(); }
    //! Advances by n <= batch_length().
    sort_node& operator+=(std::size_t n) {
        sorter_ += n;
        return *this;
    }

private:
    //! Pushes up to limit elements of src into the sorter; returns false at src's end.
    bool feed(std::uint64_t limit) {
        std::uint64_t done = 0;
        while (done < limit) {
            if (src_.empty()) return false;
            std::size_t n = std::min<std::uint64_t>(src_.batch_length(), limit - done);
            n = std::min(n, scratch_.size());
            with_contiguous(src_.batch_begin(), n, scratch_.data(),
                            [&](const value_type* p, std::size_t k) { sorter_.push_batch(p, k); });
            src_ += n;
            done += n;
        }
        return true;
    }

    void read_all() {
        read_ = true;
        scratch_.resize(default_chunk);
        while (feed(~std::uint64_t(0))) {
        }
        sorter_.push_stop();
    }

    //! One task reads about one run, then re-spawns itself.
    void spawn_read() {
        scratch_.resize(default_chunk);
        ctx_->spawn([this] {
            if (feed(run_elements()))
                spawn_read();
            else
                sorter_.push_stop();
        });
    }

    std::uint64_t run_elements() const { return std::uint64_t(1) << 20; }

    stored_t<Src> src_;
    sorter_node<value_type, Cmp> sorter_;
    bool async_, read_ = false;
    run_context* ctx_ = nullptr;
    std::vector<value_type> scratch_;
};

//! src sorted by cmp within memory_bytes (0: as the run's budget assigns).
template <class Src, class Cmp, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto sort(Src&& src, Cmp cmp, std::size_t memory_bytes = 0, sort_options opt = {}) {
    return sort_node<Src, Cmp>(std::forward<Src>(src), cmp, memory_bytes, opt);
}

//! src sorted by cmp with options, memory as the run's budget assigns.
template <class Src, class Cmp, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto sort(Src&& src, Cmp cmp, sort_options opt) {
    return sort_node<Src, Cmp>(std::forward<Src>(src), cmp, 0, opt);
}

//! Stage for `src | sort(cmp, memory_bytes, opt)`.
template <class Cmp, std::enable_if_t<!is_pull_node_v<Cmp>, int> = 0>
auto sort(Cmp cmp, std::size_t memory_bytes = 0, sort_options opt = {}) {
    return make_stage([cmp, memory_bytes, opt](auto&& src) {
        return sort(std::forward<decltype(src)>(src), cmp, memory_bytes, opt);
    });
}

//! Stage for `src | sort(cmp, opt)`, memory as the run's budget assigns.
template <class Cmp>
auto sort(Cmp cmp, sort_options opt) {
    return sort(cmp, 0, opt);
}

}  // namespace emflow
