// SPDX-License-Identifier: BSL-1.0
// Support of the MPI tests: the world communicator, per-rank disks and seeds.
#pragma once

#include "test_env.hpp"

#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/external_memory.hpp>

#include <cstdint>

namespace emflow_mpi_test {

//! MPI_COMM_WORLD's duplicate, set up by the tests' main.
const emflow::mpi::communicator& world();

//! This rank's external memory, in its own directory of this process's test directory.
inline emflow_test::scoped_test_dir& configure_rank_disks() {
    static emflow_test::scoped_test_dir dir;
    if (!emflow::external_memory_configured()) {
        emflow::external_memory_options cfg;
        cfg.tmp_base = dir.path().string();
        emflow::mpi::configure_rank_external_memory(world(), cfg);
    }
    return dir;
}

//! Rank 0's test seed (printed; replayable with EMFLOW_TEST_SEED), the same on every rank.
inline std::uint64_t shared_seed(const emflow::mpi::communicator& comm) {
    std::uint64_t seed = comm.rank() == 0 ? emflow_test::test_seed() : 0;
    return comm.allgather(seed)[0];
}

//! A seed for this rank: the shared seed mixed with the rank, so ranks draw different data.
inline std::uint64_t rank_seed(const emflow::mpi::communicator& comm) {
    return shared_seed(comm) ^ (0x9E3779B97F4A7C15ull * std::uint64_t(comm.rank() + 1));
}

}  // namespace emflow_mpi_test
