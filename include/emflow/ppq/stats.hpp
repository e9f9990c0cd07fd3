// SPDX-License-Identifier: BSL-1.0
// emflow/ppq/stats.hpp: counters reported by parallel_priority_queue::stats().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace emflow {

//! A snapshot of the queue's state and counters since construction.
struct ppq_stats {
    std::uint64_t items_in_ram = 0;   //!< items in insertion heaps, internal arrays, buffers
    std::uint64_t items_on_disk = 0;  //!< items in external arrays not yet loaded
    std::vector<std::size_t> internal_arrays_per_level;  //!< internal arrays on each level
    std::vector<std::size_t> external_arrays_per_level;  //!< external arrays on each level
    std::uint64_t internal_merges = 0;                   //!< level merges of internal arrays
    std::uint64_t external_merges = 0;                   //!< level merges of external arrays
    std::uint64_t flushes = 0;           //!< merges of all internal arrays into external memory
    std::uint64_t background_sorts = 0;  //!< full insertion heaps sorted by background tasks
    std::uint64_t sorted_runs = 0;       //!< runs of push_sorted added without a sort
    std::uint64_t extract_refills = 0;   //!< refills of the extract buffer
    std::uint64_t bytes_written = 0;     //!< bytes written to disk by this queue
    std::uint64_t bytes_read = 0;        //!< bytes read from disk by this queue
    std::uint64_t prefetch_hits = 0;     //!< blocks already loaded when the merge needed them
    std::uint64_t prefetch_misses = 0;   //!< blocks the merge had to wait for
    std::uint64_t hints_cancelled = 0;   //!< prefetch hints withdrawn after the prediction changed
    std::size_t peak_memory_bytes = 0;   //!< highest accounted RAM use (buffers and arrays)
};

}  // namespace emflow
