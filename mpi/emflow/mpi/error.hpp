// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/error.hpp: MPI failures as C++ exceptions. Every MPI call of emflow::mpi goes
// through check(), on communicators whose error handler is MPI_ERRORS_RETURN, so a failing call
// throws an mpi_error naming the rank and the call instead of aborting the job. A failure on
// another rank arrives as a remote_error naming the rank where it happened.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace emflow::mpi {

//! The rank of this process in MPI_COMM_WORLD, or -1 before MPI_Init.
inline int world_rank() {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) return -1;
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

//! An MPI call that returned an error.
class mpi_error : public std::runtime_error {
public:
    //! call (e.g. "MPI_Isend") failed with code on rank.
    mpi_error(int rank, const std::string& call, int code)
        : std::runtime_error("emflow::mpi: rank " + std::to_string(rank) + ": " + call +
                             " failed: " + describe(code)),
          rank_(rank), call_(call), code_(code) {}

    //! The world rank where the call failed.
    int rank() const { return rank_; }
    //! The name of the MPI function.
    const std::string& call() const { return call_; }
    //! The MPI error code.
    int code() const { return code_; }

private:
    static std::string describe(int code) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
            return "MPI error " + std::to_string(code);
        return std::string(text, static_cast<std::size_t>(len));
    }

    int rank_;
    std::string call_;
    int code_;
};

//! An error that happened on another rank (origin) and ended the collective operation here.
class remote_error : public std::runtime_error {
public:
    //! The error message text raised on rank origin.
    remote_error(int origin, const std::string& message)
        : std::runtime_error("emflow::mpi: rank " + std::to_string(origin) + " failed: " + message),
          origin_(origin), message_(message) {}

    //! The world rank where the error was raised.
    int origin() const { return origin_; }
    //! Its message, as raised there.
    const std::string& message() const { return message_; }

private:
    int origin_;
    std::string message_;
};

//! Throws mpi_error(world rank, call, rc) unless rc is MPI_SUCCESS.
inline void check(int rc, const char* call) {
    if (rc != MPI_SUCCESS) throw mpi_error(world_rank(), call, rc);
}

}  // namespace emflow::mpi
