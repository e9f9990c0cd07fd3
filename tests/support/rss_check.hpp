// SPDX-License-Identifier: BSL-1.0
// tests/support/rss_check.hpp: the RSS tests' check of the one-budget promise: the kernel's peak
// RSS (VmHWM, reset before the run by emflow::reset_peak_rss()) <= budget + 64 MiB.
#pragma once

#include <catch2/catch.hpp>

#include <emflow/process_memory.hpp>

#include <cstddef>
#include <iostream>

namespace emflow_test {

//! What the promise allows beyond the budget: code, STXXL's and oneTBB's own state.
inline constexpr std::size_t rss_allowance = std::size_t(64) << 20;

//! The peak RSS since the reset, failing the test where the kernel does not report it.
inline std::size_t peak_rss() {
    const std::size_t b = emflow::peak_rss_bytes();
    if (b == 0) FAIL("no VmHWM in /proc/self/status");
    return b;
}

//! Checks that the peak RSS since the reset is within budget + rss_allowance; prints it beside
//! the RSS before the run.
inline void check_peak_rss(std::size_t budget, std::size_t before) {
    constexpr std::size_t MiB = std::size_t(1) << 20;
    const std::size_t peak = peak_rss();
    std::cout << "budget " << budget / MiB << " MiB, RSS before " << before / MiB << " MiB, peak "
              << peak / MiB << " MiB\n";
    CHECK(peak <= budget + rss_allowance);
}

}  // namespace emflow_test
