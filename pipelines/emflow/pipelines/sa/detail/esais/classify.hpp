// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/classify.hpp: eSAIS's one scan of the text. Suffix i is S-type
// if T[i] < T[i+1], L-type if T[i] > T[i+1], and of the type of i+1 if they are equal (the end is
// smaller than every byte, so the last run is L-type). A maximal run of equal bytes thus has one
// type, known once the next run starts: the scan reads the text front to back, run by run, and
// types each run when the next one begins, so it never holds more than one part (a part's runs
// strictly rise or fall, hence at most 256 of them). When a part closes, it emits its chain's
// start (the anchor right of it with the part's first window) and the continuations, each kind
// to its sink if it has one (the seeds are read again by another scan where they are needed:
// seed_scan.hpp).
#pragma once

#include <emflow/node.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! Where the scan writes, in position order: sinks (operator<<, finish()), each may be null.
template <class Index, class SeedSink, class ContSink>
struct scan_outputs {
    SeedSink* sstar;       //!< S* positions with the L-part left of them (the L-pass's seeds)
    SeedSink* lstar;       //!< L-part starts after an S-part, with the S-part (the S-pass's seeds)
    ContSink* l_cont;      //!< continuations of the L-parts
    ContSink* s_cont;      //!< continuations of the S-parts
    seed<Index> end{};     //!< the end of the text (anchor n) with the last L-part
    bucket_counts counts;  //!< suffixes by type and byte
};

//! Push node of the text's bytes that classifies the suffixes and writes the chains' data.
template <class Index, class SeedSink, class ContSink>
class classifier {
    struct run {
        std::uint64_t start, len;  // leftmost position, length
        std::uint8_t ch;
    };

public:
    using value_type = std::uint8_t;  //!< element type

    //! Writes into out's sinks; out.counts and out.end are set by the scan.
    explicit classifier(scan_outputs<Index, SeedSink, ContSink>& out) : out_(&out) {}

    //! Starts counting.
    void start(run_context&) {
        out_->counts = {};
        part_.reserve(257);
    }
    //! The next byte.
    void push(std::uint8_t c) { push_batch(&c, 1); }
    //! The next n bytes.
    void push_batch(const std::uint8_t* p, std::size_t n) {
        if (n == 0) return;
        if (!have_run_) {
            cur_ = {pos_, 0, p[0]};
            have_run_ = true;
        }
        // the open run in locals (in registers), not in the member
        run r = cur_;
        std::uint64_t pos = pos_;
        for (std::size_t i = 0; i < n;) {
            const std::uint8_t c = p[i];
            if (c == r.ch) {
                std::size_t j = i + 1;
                while (j < n && p[j] == c) ++j;
                r.len += j - i;
                pos += j - i;
                i = j;
            } else {
                typed(r, r.ch > c);
                r = {pos++, 1, c};
                ++i;
            }
        }
        cur_ = r;
        pos_ = pos;
    }
    //! End of the text: the last run is L-type, its part ends at the end marker.
    void push_stop() {
        if (have_run_) {
            typed(cur_, true);
            close_part(pos_, 0, 0, true);
        }
        if (out_->sstar) out_->sstar->finish();
        if (out_->lstar) out_->lstar->finish();
        if (out_->l_cont) out_->l_cont->finish();
        if (out_->s_cont) out_->s_cont->finish();
    }

private:
    //! Run r has type L (or S).
    void typed(run r, bool l_type) {
        if (!part_.empty() && part_l_ != l_type) close_part(r.start, r.ch, r.len);
        (l_type ? out_->counts.l_type : out_->counts.s_type)[r.ch] += r.len;
        // field by field into place: a copy of the whole run stalls on store forwarding
        run& slot = part_.emplace_back();
        slot.start = r.start;
        slot.len = r.len;
        slot.ch = r.ch;
        part_l_ = l_type;
    }
    //! The window of the current part from its run i (nearest first) on, and in held the runs
    //! it holds in full: run i, then the next ones while they are short and, in the window's
    //! last slot, the part's last; the run after them by its byte alone (its continuation comes
    //! at the run before it), so that a chain always knows the bucket its next suffix goes to.
    window<Index> window_at(std::size_t i, std::size_t& held) const {
        window<Index> w{};
        const std::size_t k = part_.size();
        w.len = Index(part_[k - 1 - i].len);
        w.ch[0] = part_[k - 1 - i].ch;
        held = 1;
        for (unsigned j = 1; j < window_runs && i + j < k; ++j) {
            const run& r = part_[k - 1 - (i + j)];
            w.ch[j] = r.ch;
            const bool fits = j + 1 < window_runs || i + j + 1 == k;
            if (r.len > short_run || !fits) {
                w.set_next_len(j, in_continuation);
                break;
            }
            w.set_next_len(j, unsigned(r.len));
            ++held;
        }
        return w;
    }
    //! The part ends before the anchor run r (at position a, byte c, length len), or before the
    //! end of the text (at_end).
    void close_part(std::uint64_t a, std::uint8_t c, std::uint64_t len, bool at_end = false) {
        // built only where it goes: a scan mostly drops one kind of seeds or both
        std::size_t held = 0;
        auto anchor = [&] {
            return seed<Index>{Index(a), Index(a), Index(0), Index(len), window_at(0, held), c};
        };
        if (!part_l_) {
            if (out_->lstar) *out_->lstar << anchor();
            ++out_->counts.lstar[c];
        } else if (at_end) {
            out_->end = anchor();
        } else {
            if (out_->sstar) *out_->sstar << anchor();
            ++out_->counts.sstar[c];
        }
        ContSink* conts = part_l_ ? out_->l_cont : out_->s_cont;
        const std::size_t k = part_.size();
        if (conts && held == 0) window_at(0, held);  // no seed was built (held >= 1 if one was)
        for (std::size_t i = held; conts && i < k; i += held) {
            const run& finished = part_[k - i];  // nearest-first run i - 1
            *conts << continuation<Index>{Index(finished.start), window_at(i, held), finished.ch};
        }
        part_.clear();
    }

    scan_outputs<Index, SeedSink, ContSink>* out_;
    std::vector<run> part_;  // the open part's runs, left to right
    bool part_l_ = false;
    run cur_{};  // the run being read (type unknown)
    bool have_run_ = false;
    std::uint64_t pos_ = 0;
};

}  // namespace emflow::pipelines::sa::detail::esais
