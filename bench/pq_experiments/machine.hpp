// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/machine.hpp: facts about the machine and the process for the CSV.
#pragma once

#include <cstdint>
#include <string>

namespace pq_bench {

//! The CPU model from /proc/cpuinfo ("unknown" if absent).
std::string cpu_model();

//! Online logical cores.
unsigned cpu_cores();

//! Peak resident set size of this process so far, in bytes (getrusage).
std::uint64_t peak_rss_bytes();

//! The 1-minute load average (other processes competing for the cores make timings noisy).
double load_average();

//! $OMP_WAIT_POLICY, or "default" (spinning OpenMP threads suffer badly from oversubscription).
std::string omp_wait_policy();

//! Current UTC time as ISO 8601.
std::string utc_timestamp();

}  // namespace pq_bench
