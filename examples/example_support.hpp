// SPDX-License-Identifier: BSL-1.0
// The small helpers the examples share: an order of 64-bit keys for STXXL's own sorter (which
// needs sentinels; emflow's sorts take any order), a mixing hash for order-independent
// checksums, and elapsed seconds.
#pragma once

#include <chrono>
#include <cstdint>

namespace emflow_example {

//! Ascending keys, with the sentinels STXXL's sorters need.
struct u64_order {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

//! A bijective mix of v: sums of mix() compare multisets regardless of order.
inline std::uint64_t mix(std::uint64_t v) { return (v ^ (v >> 31)) * 0x7FB5D329728EA185ull; }

//! Seconds since t.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace emflow_example
