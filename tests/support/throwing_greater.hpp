// SPDX-License-Identifier: BSL-1.0
// Test support: a comparator that orders like std::greater<std::uint64_t> (a min-queue) and
// throws once armed, on the countdown-th call, to test exception paths inside parallel code.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace emflow_test {

//! Orders like std::greater; throws "comparator failed" when a positive countdown reaches 0.
struct throwing_greater {
    std::shared_ptr<std::atomic<std::int64_t>> countdown;  //!< 0: never throws
    bool operator()(std::uint64_t a, std::uint64_t b) const {
        if (countdown->load(std::memory_order_relaxed) > 0 && countdown->fetch_sub(1) == 1)
            throw std::runtime_error("comparator failed");
        return a > b;
    }
};

}  // namespace emflow_test
