// SPDX-License-Identifier: BSL-1.0
// Test support: a comparator that orders like std::less<std::uint64_t> and throws whenever it
// meets one chosen item, to test exception paths of sorts and trees.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace emflow_test {

//! Orders like std::less; throws "comparator failed" when either argument is bad.
struct throwing_less {
    std::uint64_t bad;  //!< the item it refuses to compare
    bool operator()(std::uint64_t a, std::uint64_t b) const {
        if (a == bad || b == bad) throw std::runtime_error("comparator failed");
        return a < b;
    }
};

}  // namespace emflow_test
