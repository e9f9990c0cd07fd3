// SPDX-License-Identifier: BSL-1.0
// emflow/timing.hpp: seconds on the steady clock, as progress reports, tools and benchmarks
// print them.
#pragma once

#include <chrono>

namespace emflow {

//! Seconds from t0 until now, on the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace emflow
