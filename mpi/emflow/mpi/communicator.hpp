// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/communicator.hpp: an owned MPI communicator (a duplicate, so emflow's messages never
// match the application's) whose errors are exceptions (MPI_ERRORS_RETURN + check()).
//
// emflow initializes MPI with MPI_THREAD_SERIALIZED (environment.hpp): MPI is called from an
// exchange's progress thread and from the thread that runs collectives, never concurrently,
// because every call holds the process-wide mpi_mutex(). No call blocks while holding it:
// point-to-point calls are non-blocking, and waits (also of the non-blocking collectives used
// here) poll MPI_Test with the mutex released in between, so other threads' MPI calls proceed.
//
//   emflow::mpi::communicator comm = env.world().duplicate();   // collective
//   std::vector<std::uint64_t> counts = comm.allgather(n);
#pragma once

#include <emflow/mpi/error.hpp>
#include <emflow/mpi/stats.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::mpi {

//! Serializes every MPI call of the process (MPI_THREAD_SERIALIZED).
inline std::mutex& mpi_mutex() {
    static std::mutex m;
    return m;
}

//! Runs f() -> int (an MPI call) under mpi_mutex() and throws mpi_error if it failed.
template <class F>
void locked_call(const char* call, F&& f) {
    std::lock_guard<std::mutex> lock(mpi_mutex());
    check(f(), call);
}

//! Sleeps a little longer each time nothing happened (polling of MPI requests); never spins hot,
//! because ranks may share cores. Short pauses for the first milliseconds of a wait: a
//! non-blocking collective advances one step per poll on every rank (MPICH's in particular), so
//! long pauses there would multiply its latency; long waits (a peer still computing) back off
//! further.
class backoff {
public:
    //! Waits before the next poll.
    void pause() {
        unsigned d = next_delay_us();
        if (d == 0)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(d));
    }
    //! The pause before the next poll in microseconds (0: just yield), for a caller that waits
    //! in its own way (a condition variable).
    unsigned next_delay_us() {
        unsigned d = delay_us_;
        waited_us_ += d;
        unsigned cap = waited_us_ < patient_after_us ? short_max_us : max_us;
        delay_us_ = std::min<unsigned>(cap, delay_us_ == 0 ? 1 : 2 * delay_us_);
        return d;
    }
    //! Something happened: poll at once next time.
    void reset() {
        delay_us_ = 0;
        waited_us_ = 0;
    }

    static constexpr unsigned short_max_us = 50;         //!< the longest pause early in a wait
    static constexpr unsigned max_us = 500;              //!< the longest pause
    static constexpr unsigned patient_after_us = 20000;  //!< waited this long: longer pauses

private:
    unsigned delay_us_ = 0;
    std::uint64_t waited_us_ = 0;
};

//! An owned communicator with MPI_ERRORS_RETURN.
class communicator {
public:
    //! Duplicates parent (collective over parent).
    explicit communicator(MPI_Comm parent) {
        locked_call("MPI_Comm_dup", [&] { return MPI_Comm_dup(parent, &comm_); });
        locked_call("MPI_Comm_set_errhandler",
                    [&] { return MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN); });
        locked_call("MPI_Comm_rank", [&] { return MPI_Comm_rank(comm_, &rank_); });
        locked_call("MPI_Comm_size", [&] { return MPI_Comm_size(comm_, &size_); });
    }
    //! Takes over o's communicator.
    communicator(communicator&& o) noexcept
        : comm_(std::exchange(o.comm_, MPI_COMM_NULL)), rank_(o.rank_), size_(o.size_) {}
    //! Swaps communicators with o (o frees this one's former communicator).
    communicator& operator=(communicator&& o) noexcept {
        std::swap(comm_, o.comm_);
        rank_ = o.rank_;
        size_ = o.size_;
        return *this;
    }
    communicator(const communicator&) = delete;
    communicator& operator=(const communicator&) = delete;
    //! Frees the communicator (unless MPI was finalized already).
    ~communicator() {
        int finalized = 1;
        MPI_Finalized(&finalized);
        if (comm_ == MPI_COMM_NULL || finalized) return;
        std::lock_guard<std::mutex> lock(mpi_mutex());
        MPI_Comm_free(&comm_);
    }

    //! A new communicator over the same ranks, with its own message space (collective).
    communicator duplicate() const { return communicator(comm_); }

    //! This process's rank.
    int rank() const { return rank_; }
    //! Number of ranks.
    int size() const { return size_; }
    //! The MPI handle.
    MPI_Comm native() const { return comm_; }

    //! Starts sending bytes to dest (non-blocking; buf must live until the request completes).
    void isend(const void* buf, std::size_t bytes, int dest, int tag, MPI_Request& req) const {
        locked_call("MPI_Isend", [&] {
            return MPI_Isend(buf, int_count(bytes), MPI_BYTE, dest, tag, comm_, &req);
        });
    }
    //! Starts receiving up to bytes from source (MPI_ANY_SOURCE allowed; non-blocking).
    void irecv(void* buf, std::size_t bytes, int source, int tag, MPI_Request& req) const {
        locked_call("MPI_Irecv", [&] {
            return MPI_Irecv(buf, int_count(bytes), MPI_BYTE, source, tag, comm_, &req);
        });
    }
    //! Waits for req by polling (the MPI mutex is free between polls); returns its status.
    MPI_Status wait(MPI_Request& req) const {
        backoff pause;
        for (;;) {
            int done = 0;
            MPI_Status status;
            locked_call("MPI_Test", [&] { return MPI_Test(&req, &done, &status); });
            if (done) return status;
            pause.pause();
        }
    }

    //! Every rank's x, by rank (collective; T trivially copyable).
    template <class T>
    std::vector<T> allgather(const T& x) const {
        static_assert(std::is_trivially_copyable_v<T>, "allgather sends raw bytes");
        std::vector<T> all(static_cast<std::size_t>(size_));
        MPI_Request req;
        locked_call("MPI_Iallgather", [&] {
            return MPI_Iallgather(&x, int(sizeof(T)), MPI_BYTE, all.data(), int(sizeof(T)),
                                  MPI_BYTE, comm_, &req);
        });
        wait_collective(req, sizeof(T) * others());
        return all;
    }

    //! The concatenation of every rank's vector, in rank order (collective).
    template <class T>
    std::vector<T> allgatherv(const std::vector<T>& mine) const {
        static_assert(std::is_trivially_copyable_v<T>, "allgatherv sends raw bytes");
        std::vector<std::uint64_t> counts = allgather<std::uint64_t>(mine.size());
        std::vector<int> bytes(counts.size()), displs(counts.size());
        std::size_t total = 0;
        for (std::size_t r = 0; r < counts.size(); ++r) {
            bytes[r] = int_count(counts[r] * sizeof(T));
            displs[r] = int_count(total * sizeof(T));
            total += counts[r];
        }
        int_count(total * sizeof(T));
        std::vector<T> all(total);
        MPI_Request req;
        locked_call("MPI_Iallgatherv", [&] {
            return MPI_Iallgatherv(mine.data(), bytes[std::size_t(rank_)], MPI_BYTE, all.data(),
                                   bytes.data(), displs.data(), MPI_BYTE, comm_, &req);
        });
        wait_collective(req, std::uint64_t(bytes[std::size_t(rank_)]) * others());
        return all;
    }

    //! Personalized all-to-all (collective): out[d] goes to rank d; returns what every rank
    //! sent to this one, in rank order. For small, round-synchronous message sets; streams go
    //! through an exchange (exchange.hpp).
    template <class T>
    std::vector<T> alltoallv(const std::vector<std::vector<T>>& out) const {
        static_assert(std::is_trivially_copyable_v<T>, "alltoallv sends raw bytes");
        const std::size_t p = std::size_t(size_);
        if (out.size() != p)
            throw std::invalid_argument("emflow::mpi: alltoallv needs one vector per rank");
        std::vector<int> send_bytes(p), send_displs(p), recv_bytes(p), recv_displs(p);
        std::vector<T> flat;
        for (std::size_t d = 0; d < p; ++d) {
            send_displs[d] = int_count(flat.size() * sizeof(T));
            send_bytes[d] = int_count(out[d].size() * sizeof(T));
            flat.insert(flat.end(), out[d].begin(), out[d].end());
        }
        MPI_Request req;
        locked_call("MPI_Ialltoall", [&] {
            return MPI_Ialltoall(send_bytes.data(), 1, MPI_INT, recv_bytes.data(), 1, MPI_INT,
                                 comm_, &req);
        });
        wait_collective(req, sizeof(int) * others());
        std::size_t total = 0;
        for (std::size_t r = 0; r < p; ++r) {
            recv_displs[r] = int_count(total);
            total += std::size_t(recv_bytes[r]);
        }
        std::vector<T> in(total / sizeof(T));
        locked_call("MPI_Ialltoallv", [&] {
            return MPI_Ialltoallv(flat.data(), send_bytes.data(), send_displs.data(), MPI_BYTE,
                                  in.data(), recv_bytes.data(), recv_displs.data(), MPI_BYTE, comm_,
                                  &req);
        });
        wait_collective(req, flat.size() * sizeof(T) - std::size_t(send_bytes[std::size_t(rank_)]));
        return in;
    }

    //! The sum over all ranks of x (collective).
    std::uint64_t allreduce_sum(std::uint64_t x) const {
        std::uint64_t sum = 0;
        MPI_Request req;
        locked_call("MPI_Iallreduce", [&] {
            return MPI_Iallreduce(&x, &sum, 1, MPI_UINT64_T, MPI_SUM, comm_, &req);
        });
        wait_collective(req, sizeof(x) * others());
        return sum;
    }

    //! Waits until every rank arrived (collective).
    void barrier() const {
        MPI_Request req;
        locked_call("MPI_Ibarrier", [&] { return MPI_Ibarrier(comm_, &req); });
        wait_collective(req, 0);
    }

private:
    //! Waits for the collective req, counting it, its time and the bytes it sent to others
    //! (stats.hpp).
    void wait_collective(MPI_Request& req, std::uint64_t bytes_to_others) const {
        auto& c = detail::counters();
        detail::count(c.collectives, 1);
        detail::count(c.collective_bytes_sent, bytes_to_others);
        auto t0 = std::chrono::steady_clock::now();
        wait(req);
        detail::count_since(c.collective_wait_ns, t0);
    }
    //! Number of other ranks.
    std::uint64_t others() const { return std::uint64_t(size_ - 1); }

    //! MPI counts are ints: larger messages are a usage error, not silent truncation.
    static int int_count(std::size_t n) {
        if (n > std::size_t(std::numeric_limits<int>::max()))
            throw std::length_error("emflow::mpi: message of " + std::to_string(n) +
                                    " bytes exceeds MPI's int count");
        return int(n);
    }

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1;
};

}  // namespace emflow::mpi
