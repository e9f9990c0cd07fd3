// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/experiments.hpp: the paper's four experiments (section 4), written once
// against a queue driver and run by every implementation.
//
// A driver provides
//   void push_keys(const key_sequence& keys, uint64_t first, uint64_t count, key_checksum& pushed)
//       pushes the items with keys keys(first) .. keys(first + count - 1), adding them to pushed;
//   void pop_items(uint64_t count, pop_verifier& verifier)
//       pops the next count items in pop order, handing each to the verifier;
//   uint64_t size() const.
#pragma once

#include "options.hpp"
#include "run_result.hpp"
#include "verifier.hpp"

#include <emflow/external_memory.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>

namespace pq_bench {

//! Seconds since construction or the previous lap().
class lap_timer {
public:
    //! Seconds since the last lap, and starts the next one.
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - start_).count();
        start_ = now;
        return s;
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

namespace detail {

template <class Driver>
void check_size(const Driver& d, std::uint64_t expected, const char* when) {
    if (d.size() != expected)
        throw verification_error(std::string("queue holds ") + std::to_string(d.size()) +
                                 " items " + when + ", expected " + std::to_string(expected));
}

//! push-rand-pop / push-asc-pop: push n items, then pop all n.
template <class Driver>
void push_then_pop(const options& o, Driver& d, run_result& r) {
    const key_sequence keys{o.exp == experiment::push_rand_pop, o.seed};
    key_checksum pushed;
    pop_verifier verifier;
    lap_timer timer;
    d.push_keys(keys, 0, o.items(), pushed);
    r.seconds_push = timer.lap();
    d.pop_items(o.items(), verifier);
    r.seconds_pop = timer.lap();
    verifier.finish(pushed);
    check_size(d, 0, "after popping everything");
}

//! asc-rbulk-rewrite / bulk-rewrite: fill with n ascending items (not measured), then rewrite
//! the queue in bulks: pop v items, push v items larger than all present, until n are popped.
template <class Driver>
void bulk_rewrite(const options& o, Driver& d, run_result& r) {
    const std::uint64_t n = o.items();
    const key_sequence keys{false, o.seed};
    key_checksum prefilled, rewritten;
    pop_verifier verifier;
    std::mt19937_64 rng(o.seed);
    std::uniform_int_distribution<std::uint64_t> random_bulk(0, o.bulk_size);

    lap_timer timer;
    d.push_keys(keys, 0, n, prefilled);
    r.seconds_prefill = timer.lap();
    for (std::uint64_t popped = 0; popped < n;) {
        const std::uint64_t wanted =
            o.exp == experiment::asc_rbulk_rewrite ? random_bulk(rng) : o.bulk_size;
        const std::uint64_t v = std::min(wanted, n - popped);
        if (v == 0) continue;
        d.pop_items(v, verifier);
        d.push_keys(keys, n + popped, v, rewritten);
        popped += v;
        ++r.bulks;
    }
    r.seconds_rewrite = timer.lap();
    verifier.finish(prefilled);  // all new keys are larger, so exactly the prefill comes out
    check_size(d, n, "after the rewrite");
}

}  // namespace detail

//! Runs the experiment of o on the driver, verifying every popped item; throws
//! verification_error for a wrong result.
template <class Driver>
run_result run_experiment(const options& o, Driver& d) {
    run_result r;
    const emflow::io_volume before = emflow::current_io_volume();
    if (is_rewrite(o.exp))
        detail::bulk_rewrite(o, d, r);
    else
        detail::push_then_pop(o, d, r);
    const emflow::io_volume after = emflow::current_io_volume();
    r.bytes_read = after.bytes_read - before.bytes_read;
    r.bytes_written = after.bytes_written - before.bytes_written;
    return r;
}

}  // namespace pq_bench
