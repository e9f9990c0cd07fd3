// SPDX-License-Identifier: BSL-1.0
// emflow/process_memory.hpp: the process's resident memory as the kernel counts it, to check the
// one-budget promise (peak RSS during a run <= budget + 64 MiB, emflow/memory_budget.hpp) from
// outside emflow's own accounting. Linux only (/proc/self).
//
//   emflow::reset_peak_rss();  run(...);  std::size_t peak = emflow::peak_rss_bytes();
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace emflow {

//! The process's peak resident set size in bytes (VmHWM) since start or the last reset; 0 if
//! the kernel does not report it.
inline std::size_t peak_rss_bytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

//! Resets the peak resident set size to the current one (clear_refs 5).
inline void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

}  // namespace emflow
