// SPDX-License-Identifier: BSL-1.0
// The Catch2 main of the MPI tests: MPI lives for the whole session, every rank runs it.
#include "catch_session.hpp"
#include "mpi_test_env.hpp"

#include <emflow/mpi/environment.hpp>

namespace {
const emflow::mpi::communicator* world_comm = nullptr;
}

const emflow::mpi::communicator& emflow_mpi_test::world() { return *world_comm; }

int main(int argc, char** argv) {
    emflow::mpi::environment env(argc, argv);
    world_comm = &env.world();
    int failed = emflow_test::run_catch_session(argc, argv);
    world_comm = nullptr;
    return failed == 0 ? 0 : 1;
}
