// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/sorted_check.hpp: checks the result of a distributed sort without gathering it:
// each rank scans its own slice, and the ranks compare only their slices' ends.
//
//   bool ok = emflow::mpi::sorted_across_ranks(world, output, cmp);   // collective
#pragma once

#include <emflow/mpi/communicator.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace emflow::mpi {

//! Collective: true on every rank if every rank's slice (a container: an stxxl::vector, a
//! std::vector) is sorted by cmp and the slices are ordered by rank (no item of a later rank
//! before an item of an earlier one; empty slices are skipped).
template <class Slice, class Cmp>
bool sorted_across_ranks(const communicator& comm, const Slice& slice, Cmp cmp) {
    using T = std::decay_t<decltype(*slice.cbegin())>;
    static_assert(std::is_trivially_copyable_v<T>, "the slices' ends are sent as bytes");
    struct ends {
        T first, last;
        std::uint64_t size;
    };
    ends mine{T(), T(), 0};
    bool sorted = true;
    for (auto it = slice.cbegin(); it != slice.cend(); ++it) {
        if (mine.size == 0)
            mine.first = *it;
        else
            sorted &= !cmp(*it, mine.last);
        mine.last = *it;
        ++mine.size;
    }
    std::vector<ends> all = comm.allgather(mine);
    const ends* previous = nullptr;
    for (const ends& e : all) {
        if (e.size == 0) continue;
        if (previous && cmp(e.first, previous->last)) sorted = false;
        previous = &e;
    }
    return comm.allreduce_sum(sorted ? 0 : 1) == 0;
}

}  // namespace emflow::mpi
