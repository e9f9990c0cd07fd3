// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/stats.hpp: what this process (one rank) communicated, over every communicator and
// exchange since it started: volume, and time spent waiting on other ranks. Process-wide because
// a rank is a process and operations such as the distributed PQ's bulk pushes make and destroy
// exchanges of their own. Relaxed atomics, updated where emflow already holds a lock or just
// waited: cheap enough to stay on.
//
//   auto before = emflow::mpi::communication_counters();
//   run();
//   emflow::mpi::communication_stats used = emflow::mpi::communication_counters() - before;
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace emflow::mpi {

//! A snapshot of the process's communication counters.
struct communication_stats {
    std::uint64_t exchange_bytes_sent = 0;  //!< exchange messages to other ranks, headers included
    std::uint64_t exchange_items_sent = 0;  //!< items sent through exchanges to other ranks
    std::uint64_t exchange_messages_sent = 0;  //!< data messages to other ranks
    std::uint64_t collectives = 0;             //!< collective operations started
    std::uint64_t collective_bytes_sent = 0;   //!< payload this rank contributed to others in them
    double send_wait_seconds = 0;  //!< exchange senders waiting for a free buffer (back-pressure)
    double receive_wait_seconds = 0;     //!< exchange receivers waiting for the next message
    double collective_wait_seconds = 0;  //!< waiting for collectives to complete (for other ranks)

    //! Bytes to other ranks, exchanges and collectives together.
    std::uint64_t bytes_sent() const { return exchange_bytes_sent + collective_bytes_sent; }
    //! The counts and times accumulated since `before`.
    communication_stats operator-(const communication_stats& before) const {
        communication_stats d;
        d.exchange_bytes_sent = exchange_bytes_sent - before.exchange_bytes_sent;
        d.exchange_items_sent = exchange_items_sent - before.exchange_items_sent;
        d.exchange_messages_sent = exchange_messages_sent - before.exchange_messages_sent;
        d.collectives = collectives - before.collectives;
        d.collective_bytes_sent = collective_bytes_sent - before.collective_bytes_sent;
        d.send_wait_seconds = send_wait_seconds - before.send_wait_seconds;
        d.receive_wait_seconds = receive_wait_seconds - before.receive_wait_seconds;
        d.collective_wait_seconds = collective_wait_seconds - before.collective_wait_seconds;
        return d;
    }
};

namespace detail {

//! The process's counters; times in nanoseconds.
struct communication_counters_t {
    std::atomic<std::uint64_t> exchange_bytes_sent{0}, exchange_items_sent{0},
        exchange_messages_sent{0};
    std::atomic<std::uint64_t> collectives{0}, collective_bytes_sent{0};
    std::atomic<std::uint64_t> send_wait_ns{0}, receive_wait_ns{0}, collective_wait_ns{0};
};

//! The one instance.
inline communication_counters_t& counters() {
    static communication_counters_t c;
    return c;
}

//! Adds n to a counter.
inline void count(std::atomic<std::uint64_t>& counter, std::uint64_t n) {
    counter.fetch_add(n, std::memory_order_relaxed);
}

//! Adds the time since t0 to a nanosecond counter; returns it in seconds.
inline double count_since(std::atomic<std::uint64_t>& counter,
                          std::chrono::steady_clock::time_point t0) {
    auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    count(counter, std::uint64_t(ns));
    return double(ns) * 1e-9;
}

}  // namespace detail

//! The process's counters now.
inline communication_stats communication_counters() {
    auto& c = detail::counters();
    auto get = [](const std::atomic<std::uint64_t>& a) {
        return a.load(std::memory_order_relaxed);
    };
    communication_stats s;
    s.exchange_bytes_sent = get(c.exchange_bytes_sent);
    s.exchange_items_sent = get(c.exchange_items_sent);
    s.exchange_messages_sent = get(c.exchange_messages_sent);
    s.collectives = get(c.collectives);
    s.collective_bytes_sent = get(c.collective_bytes_sent);
    s.send_wait_seconds = double(get(c.send_wait_ns)) * 1e-9;
    s.receive_wait_seconds = double(get(c.receive_wait_ns)) * 1e-9;
    s.collective_wait_seconds = double(get(c.collective_wait_ns)) * 1e-9;
    return s;
}

}  // namespace emflow::mpi
