// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/seed_scan.hpp: the chains' seeds of one kind (the L-pass's S*
// seeds or the S-pass's L-part starts) read again from the text, in position order, where a phase
// needs them. Kept on disk instead, each kind would cost its 28-byte seeds (one per part: about a
// third of the text's positions on source code) written once and read in both inducing phases, and
// as much disk meanwhile; a scan reads the text's bytes once more.
//
//   seed_scan<Index> seeds(open_text, seed_kind::sstar);
//   for (; !seeds.empty(); ++seeds) use(*seeds);
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/detail/esais/classify.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>
#include <emflow/pipelines/sa/erased.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! The seeds a scan yields.
enum class seed_kind {
    sstar,  //!< S* positions with the L-part left of them (the L-pass's seeds)
    lstar   //!< L-part starts after an S-part, with the S-part (the S-pass's seeds)
};

//! A sink that keeps the seeds it is given until the reader takes them.
template <class Index>
struct seed_buffer {
    std::vector<seed<Index>> items;  //!< seeds not yet read
    //! Keeps s.
    seed_buffer& operator<<(const seed<Index>& s) {
        items.push_back(s);
        return *this;
    }
    //! Nothing to flush.
    void finish() {}
};

//! The type of the continuations' sinks a seed scan has none of.
struct no_continuations {
    //! Never called: the scan's continuation sinks are null.
    template <class T>
    no_continuations& operator<<(const T&) {
        return *this;
    }
    //! Never called.
    void finish() {}
};

//! Reads the seeds of one kind of a text, in position order.
template <class Index>
class seed_scan {
public:
    //! The seeds of kind of the text that open_text opens (called once, here). The text's
    //! reader starts in a context of its own: its buffers are not counted in a graph's budget.
    seed_scan(const text_source& open_text, seed_kind kind) : text_(open_text()), scan_(out_) {
        (kind == seed_kind::sstar ? out_.sstar : out_.lstar) = &buffer_;
        text_.start(ctx_);
        scan_.start(ctx_);
        load();
    }
    seed_scan(const seed_scan&) = delete;
    seed_scan& operator=(const seed_scan&) = delete;

    //! True after the last seed.
    bool empty() const { return next_ == buffer_.items.size(); }
    //! The current seed.
    const seed<Index>& operator*() const { return buffer_.items[next_]; }
    //! Goes to the next seed.
    seed_scan& operator++() {
        if (++next_ == buffer_.items.size()) load();
        return *this;
    }

private:
    //! Bytes classified at a time: at most half as many seeds come of them.
    static constexpr std::size_t step_bytes = 4096;

    //! Scans on until seeds come or the text ends.
    void load() {
        buffer_.items.clear();
        next_ = 0;
        while (buffer_.items.empty() && !ended_) {
            if (text_.empty()) {
                scan_.push_stop();
                ended_ = true;
                break;
            }
            const std::size_t k = std::min(text_.batch_length(), step_bytes);
            scan_.push_batch(text_.batch_begin(), k);
            text_ += k;
        }
    }

    run_context ctx_;  // the text reader's, outside any graph
    scan_outputs<Index, seed_buffer<Index>, no_continuations> out_{};
    seed_buffer<Index> buffer_;
    any_pull_source<std::uint8_t> text_;
    classifier<Index, seed_buffer<Index>, no_continuations> scan_;
    std::size_t next_ = 0;
    bool ended_ = false;
};

}  // namespace emflow::pipelines::sa::detail::esais
