// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/agree.hpp: collective error agreement. Every rank passes its own outcome of a phase
// (an exception or none); if any rank failed, every rank throws: the rank where the error was
// raised rethrows it, the others throw a remote_error with its message. Errors that arrived from
// another rank (remote_error) point to their origin, so the original error is the one reported.
//
//   std::exception_ptr e;  try { phase(); } catch (...) { e = std::current_exception(); }
//   agree_on_errors(comm, e);   // returns only if no rank failed
#pragma once

#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/error.hpp>

#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace emflow::mpi {

//! The rank where e was raised (self unless it is a remote_error) and its message.
inline std::pair<int, std::string> error_origin(std::exception_ptr e, int self) {
    try {
        std::rethrow_exception(e);
    } catch (const remote_error& r) {
        return {r.origin(), r.message()};
    } catch (const std::exception& x) {
        return {self, x.what()};
    } catch (...) {
        return {self, "unknown exception"};
    }
}

//! Collective: returns if no rank passed an error; otherwise throws on every rank (see above).
inline void agree_on_errors(const communicator& comm, std::exception_ptr local) {
    struct outcome {
        int failed;
        int origin;
    };
    std::string text;
    outcome mine{0, -1};
    if (local) {
        auto [origin, message] = error_origin(local, comm.rank());
        mine = {1, origin};
        text = std::move(message);
    }
    std::vector<outcome> all = comm.allgather(mine);
    // The reported error: the lowest rank that raised one itself; else the lowest origin named.
    int chosen = -1;
    for (int r = 0; r < comm.size() && chosen < 0; ++r)
        if (all[std::size_t(r)].failed && all[std::size_t(r)].origin == r) chosen = r;
    for (int r = 0; r < comm.size() && chosen < 0; ++r)
        if (all[std::size_t(r)].failed) chosen = all[std::size_t(r)].origin;
    if (chosen < 0) return;
    // The text comes from a rank that knows it: the origin itself, or else the lowest naming it.
    int teller = -1;
    for (int r = 0; r < comm.size() && teller < 0; ++r)
        if (all[std::size_t(r)].failed && all[std::size_t(r)].origin == chosen) teller = r;
    std::vector<char> told = comm.allgatherv(
        comm.rank() == teller ? std::vector<char>(text.begin(), text.end()) : std::vector<char>());
    if (comm.rank() == chosen && local) std::rethrow_exception(local);
    throw remote_error(chosen, std::string(told.begin(), told.end()));
}

}  // namespace emflow::mpi
