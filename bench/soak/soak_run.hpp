// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_run.hpp: one differential soak of parallel_priority_queue: random calls of
// every public member (soak_pushes.hpp, soak_pops.hpp, soak_checks.hpp), each result checked
// against the multiset model, in waves that grow the queue past its budget and drain it again.
#pragma once

#include "soak_checks.hpp"
#include "soak_options.hpp"
#include "soak_pops.hpp"
#include "soak_pushes.hpp"
#include "soak_state.hpp"

#include <emflow/ppq.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>

namespace soak {

//! The figures of a finished run.
struct run_summary {
    std::uint64_t ops = 0;            //!< item operations done
    std::uint64_t calls = 0;          //!< operations (random calls) done
    double seconds = 0;               //!< wall time of the loop and the final drain
    std::size_t max_items = 0;        //!< largest queue size
    std::uint64_t bytes_written = 0;  //!< the queue's disk writes
    std::uint64_t flushes = 0;        //!< the queue's flushes to disk
    std::map<std::string, std::uint64_t> calls_by_kind;  //!< operations of each kind
};

//! One soak: the random calls, then the drain.
class soak_run {
public:
    explicit soak_run(const options& o) : s_(o) {}

    //! The index of the current operation (for the failure message).
    std::uint64_t call() const { return s_.calls; }
    //! Its name.
    const char* call_name() const { return s_.call_name; }
    //! Item operations so far.
    std::uint64_t ops() const { return s_.ops; }

    //! Runs the operations, then drains the queue; throws mismatch at the first wrong result.
    run_summary run() {
        const auto start = std::chrono::steady_clock::now();
        auto last_report = start;
        s_.new_wave();
        while (s_.ops < s_.opt.ops) {
            one_call();
            ++by_kind_[s_.call_name];
            max_items_ = std::max(max_items_, s_.ref.size());
            if (s_.ref.size() >= s_.crest && s_.growing) s_.growing = false;
            if (!s_.growing && s_.ref.size() <= s_.crest / 64) s_.new_wave();
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report > std::chrono::seconds(5)) {
                report(std::chrono::duration<double>(now - start).count());
                last_report = now;
            }
        }
        drain();
        return summary(std::chrono::duration<double>(std::chrono::steady_clock::now() - start));
    }

private:
    //! One random call; growing: mostly pushes, draining: mostly extractions.
    void one_call() {
        ++s_.calls;
        const std::uint64_t r = s_.below(100);
        const bool g = s_.growing;
        const unsigned w[] = {g ? 10u : 5u,
                              g ? 30u : 8u,
                              g ? 10u : 4u,
                              g ? 10u : 15u,
                              g ? 12u : 30u,
                              g ? 8u : 15u,
                              g ? 14u : 16u,
                              4u,
                              2u};
        std::uint64_t acc = 0;
        unsigned op = 0;
        for (; op < 8; ++op)
            if (r < (acc += w[op])) break;
        switch (op) {
            case 0:
                return single_pushes(s_, s_.push_batch());
            case 1:
                return bulk_phase(s_, s_.push_batch());
            case 2:
                return sorted_run(s_, s_.push_batch());
            case 3:
                return single_pops(s_, s_.pop_batch());
            case 4:
                return bulk_pops(s_, s_.pop_batch());
            case 5:
                return bulk_pops_limit(s_, s_.pop_batch());
            case 6:
                return limit_phase(s_, g ? s_.push_batch() : s_.pop_batch());
            case 7:
                return inspect(s_);
            default:
                return misuse(s_);
        }
    }

    void drain() {
        s_.call_name = "final drain";
        while (!s_.ref.empty()) {
            ++s_.calls;
            s_.pq.bulk_pop(s_.out, s_.batch(s_.max_batch));
            if (s_.out.empty()) throw mismatch("bulk_pop() gave nothing, model not empty");
            s_.take_all("bulk_pop() (drain)");
        }
        if (!s_.pq.empty() || s_.pq.size() != 0) throw mismatch("queue not empty after the drain");
    }

    run_summary summary(std::chrono::duration<double> elapsed) const {
        run_summary r;
        r.seconds = elapsed.count();
        r.ops = s_.ops;
        r.calls = s_.calls;
        r.max_items = max_items_;
        const emflow::ppq_stats st = s_.pq.stats();
        r.bytes_written = st.bytes_written;
        r.flushes = st.flushes;
        r.calls_by_kind = by_kind_;
        return r;
    }

    void report(double seconds) const {
        std::cerr << "ppq_soak: " << s_.opt.budget_mib << " MiB, " << s_.opt.threads
                  << " threads: " << s_.ops << "/" << s_.opt.ops << " ops, call " << s_.calls
                  << ", size " << s_.ref.size()
                  << (s_.growing ? " (growing to " : " (draining from ") << s_.crest << "), "
                  << std::size_t(double(s_.ops) / seconds) << " ops/s\n";
    }

    soak_state s_;
    std::size_t max_items_ = 0;
    std::map<std::string, std::uint64_t> by_kind_;
};

}  // namespace soak
