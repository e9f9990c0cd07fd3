// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/lcp_minima.hpp: the range minima of Fischer's LCP inducing
// ("Inducing the LCP-Array", WADS 2011) along one pass of eSAIS. A pass places suffixes in sorted
// order with ranks 0, 1, ...; the suffix of rank r has LCP v with the one of rank r-1. When rank r
// induces a suffix into bucket c after rank r' did, their LCP is 1 + min(v over (r', r]); the first
// suffix induced into a bucket has none before it there.
//
// The minima for all 256 buckets are kept lazily: a stack of (rank, v) with v rising (an entry
// is dropped when a smaller or equal v arrives), so that min(v over (r', r]) is the v of the
// first entry above r'. Only the entries that answer some bucket's r' (and the top) can be asked
// for again, so the stack is pruned to at most 257 entries when it grows: O(1) RAM, amortized
// O(log 257) per suffix.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! The LCPs of suffixes induced into each bucket along a pass.
class lcp_minima {
    struct entry {
        std::uint64_t rank, value;
    };

public:
    //! Starts a pass.
    lcp_minima() { stack_.reserve(prune_at + 1); }

    //! The suffix of rank rank (above every rank before) has LCP value with the one before it.
    void placed(std::uint64_t rank, std::uint64_t value) {
        while (!stack_.empty() && stack_.back().value >= value) stack_.pop_back();
        stack_.push_back({rank, value});
        if (stack_.size() > prune_at) prune();
    }

    //! The suffix placed last induces one into bucket c: its LCP with the suffix induced there
    //! before (0 if it is the bucket's first).
    std::uint64_t induce(std::uint8_t c) {
        const std::uint64_t top = stack_.back().rank;
        std::uint64_t lcp = 0;
        if (has_[c]) lcp = 1 + first_above(last_[c])->value;
        has_[c] = true;
        last_[c] = top;
        return lcp;
    }

private:
    static constexpr std::size_t prune_at = 1024;

    std::vector<entry>::const_iterator first_above(std::uint64_t rank) const {
        return std::upper_bound(stack_.begin(), stack_.end(), rank,
                                [](std::uint64_t r, const entry& e) { return r < e.rank; });
    }
    //! Keeps the entries that answer some bucket, and the top.
    void prune() {
        std::vector<bool> keep(stack_.size(), false);
        keep.back() = true;
        for (unsigned c = 0; c < 256; ++c)
            if (has_[c]) {
                const auto it = first_above(last_[c]);
                if (it != stack_.end()) keep[std::size_t(it - stack_.begin())] = true;
            }
        std::size_t out = 0;
        for (std::size_t i = 0; i < stack_.size(); ++i)
            if (keep[i]) stack_[out++] = stack_[i];
        stack_.resize(out);
    }

    std::vector<entry> stack_;               // v rising, ranks rising
    std::array<std::uint64_t, 256> last_{};  // the rank that induced into each bucket last
    std::array<bool, 256> has_{};            // whether one did
};

}  // namespace emflow::pipelines::sa::detail::esais
