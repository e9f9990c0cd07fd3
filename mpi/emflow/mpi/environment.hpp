// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/environment.hpp: MPI's lifetime as an object, and a main() wrapper that never lets
// one rank's error hang the others.
//
// MPI_THREAD_SERIALIZED: emflow calls MPI from several threads (each exchange's progress thread
// and the threads running collectives, at the same time) but serializes every call with
// mpi_mutex() and never blocks inside MPI while holding it (see communicator.hpp). That is all
// emflow needs; MPI_THREAD_MULTIPLE would allow concurrent calls emflow never makes, and whether
// an MPI build provides it depends on how it was built and on its transports.
//
//   int main(int argc, char** argv) {
//       return emflow::mpi::run_main(argc, argv, [](const emflow::mpi::communicator& world) {...});
//   }
#pragma once

#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/error.hpp>

#include <mpi.h>

#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace emflow::mpi {

//! Initializes MPI (MPI_THREAD_SERIALIZED) and finalizes it at destruction.
class environment {
public:
    //! MPI_Init_thread; throws mpi_error, or std::runtime_error if MPI lacks SERIALIZED.
    environment(int& argc, char**& argv) {
        int provided = MPI_THREAD_SINGLE;
        check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
        if (provided < MPI_THREAD_SERIALIZED) {
            MPI_Finalize();
            throw std::runtime_error(
                "emflow::mpi: the MPI library does not support "
                "MPI_THREAD_SERIALIZED");
        }
        world_.emplace(MPI_COMM_WORLD);
    }
    environment(const environment&) = delete;
    environment& operator=(const environment&) = delete;
    //! MPI_Finalize; while an exception unwinds the stack, MPI_Abort instead: other ranks may
    //! wait for this one, and finalizing could hang them.
    ~environment() {
        world_.reset();
        if (std::uncaught_exceptions() > 0) {
            std::cerr << "emflow::mpi: rank " << world_rank()
                      << ": exception escaped, aborting the MPI job" << std::endl;
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Finalize();
    }

    //! A duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN.
    const communicator& world() const { return *world_; }

private:
    std::optional<communicator> world_;
};

//! Runs body(world) inside an environment. An exception is printed with the rank and ends
//! every rank by MPI_Abort (exit code 1), so an error raised on one rank never leaves others
//! waiting for it; returns 0 otherwise.
template <class Body>
int run_main(int& argc, char**& argv, Body&& body) {
    environment env(argc, argv);
    try {
        body(env.world());
    } catch (const std::exception& e) {
        std::cerr << "rank " << env.world().rank() << ": error: " << e.what() << std::endl;
        MPI_Abort(MPI_COMM_WORLD, 1);
    } catch (...) {
        std::cerr << "rank " << env.world().rank() << ": error: unknown exception" << std::endl;
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return 0;
}

}  // namespace emflow::mpi
