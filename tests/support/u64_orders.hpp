// Test support: ascending and descending orders of std::uint64_t as STXXL comparators (with the
// sentinels min_value() and max_value()), for the sort nodes and the distributed sort.
#pragma once

#include <cstdint>

namespace emflow_test {

//! Ascending order.
struct less_u64 {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

//! Descending order.
struct greater_u64 {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a > b; }
    std::uint64_t min_value() const { return ~std::uint64_t(0); }
    std::uint64_t max_value() const { return 0; }
};

}  // namespace emflow_test
