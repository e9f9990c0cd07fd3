// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/common.hpp: what every suffix-array construction of emflow shares: its
// external vector type, and the options it takes: one
// memory budget, traditional or parallel pipelining (the parallel pipelining paper's Table 2
// compares the two), an optional progress report, and the text lengths an index type can hold.
#pragma once

#include <emflow/progress.hpp>
#include <emflow/uint40.hpp>

#include <stxxl/vector>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace emflow::pipelines::sa {

//! Bytes of a block of ext_vector.
inline constexpr std::uint64_t vector_block_bytes = 256 * 1024;

//! The external vector every construction reads and writes: 256 KiB blocks, a page cache of two
//! blocks (only while it is written).
template <class T>
using ext_vector = typename stxxl::VECTOR_GENERATOR<T, 2, 1, vector_block_bytes>::result;

//! How a construction's flow graphs run.
enum class pipelining {
    traditional,  //!< no asynchronous nodes, runs sorted sequentially
    parallel      //!< asynchronous nodes where the paper puts them, parallel run sorting
};

//! The priority queue of an inducing construction (eSAIS).
enum class queue_kind {
    parallel,  //!< emflow's bulk-parallel queue
    stxxl      //!< STXXL's sequential priority_queue (for comparison)
};

//! Budget and mode of one construction.
struct sa_options {
    std::size_t memory_bytes = std::size_t(1) << 30;  //!< for the whole construction
    pipelining mode = pipelining::parallel;           //!< traditional or parallel pipelining
    queue_kind queue = queue_kind::parallel;          //!< eSAIS's priority queue
    progress* report = nullptr;                       //!< phases and bytes done; null: silent
};

//! The longest text whose suffix array has indices of type Index: positions 0..n-1 plus the
//! two values above n that constructions use as end markers and sentinels.
template <class Index>
constexpr std::uint64_t max_text_length() {
    return std::uint64_t(std::numeric_limits<Index>::max()) - 2;
}

}  // namespace emflow::pipelines::sa
