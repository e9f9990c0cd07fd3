// SPDX-License-Identifier: BSL-1.0
// ppq_tour: every interface of emflow's bulk-parallel external-memory priority queue, on more
// items than its memory budget holds: single push/pop, a parallel bulk push (OpenMP threads),
// a run pushed in order (push_sorted), bulk_pop, bulk_pop_limit, the limit loop (paper, Listing 2),
// and the queue's statistics. Checks that every item comes out once, in order, and prints a
// verdict.
//
//   ppq_tour [items=20000000] [memory_mib=64]
#include <emflow/ppq.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <vector>

namespace {

std::uint64_t key_of(std::uint64_t i) { return (i * 0x9E3779B97F4A7C15ull) >> 20; }

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
    emflow::ppq_options cfg;
    cfg.memory_bytes = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64) << 20;

    // std::greater: top() is the smallest item, as in a min-queue.
    emflow::parallel_priority_queue<std::uint64_t, std::greater<>> pq(std::greater<>(), cfg);

    // Single pushes.
    for (std::uint64_t i = 0; i < 1000; ++i) pq.push(key_of(i));

    // One bulk phase, filled from all OpenMP threads (each pushes into its own insertion heap).
    const std::uint64_t run_items = n > 101'000 ? 100'000 : 0;
    pq.bulk_push_begin(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 1000; i < std::int64_t(n - run_items); ++i) pq.bulk_push(key_of(i));
    pq.bulk_push_end();

    // The last items as one run in pop order (ascending for std::greater): push_sorted adds it
    // as it is, with no sort (a producer whose output is ordered already).
    std::vector<std::uint64_t> run;
    for (std::uint64_t i = n - run_items; i < n; ++i) run.push_back(key_of(i));
    std::sort(run.begin(), run.end());
    pq.push_sorted(std::move(run));
    std::cout << "pushed " << pq.size() << " items (" << (pq.size() * 8 >> 20) << " MiB) into "
              << (cfg.memory_bytes >> 20) << " MiB: " << pq.stats().items_on_disk
              << " of them on disk\n";

    std::uint64_t popped = 0, sum = 0, prev = 0;
    bool ordered = true;
    auto take = [&](std::uint64_t x) {
        ordered &= popped == 0 || prev <= x;
        prev = x;
        sum += x;
        ++popped;
    };

    // Single pops.
    for (int i = 0; i < 1000; ++i) {
        take(pq.top());
        pq.pop();
    }

    // bulk_pop: the next (up to) 1M items, in order.
    std::vector<std::uint64_t> bulk;
    pq.bulk_pop(bulk, 1'000'000);
    for (auto x : bulk) take(x);

    // bulk_pop_limit: everything before a limit key (for std::greater: keys smaller than it).
    const std::uint64_t limit = prev + (std::uint64_t(1) << 36);
    bool done = false;
    while (!done) {
        done = pq.bulk_pop_limit(bulk, limit, 500'000);
        for (auto x : bulk) take(x);
    }

    // The limit loop (Listing 2): pop everything before L while pushing only items >= L.
    std::uint64_t reinserted = 0;
    while (!pq.empty()) {
        const std::uint64_t L = pq.top() + (std::uint64_t(1) << 38);
        pq.limit_begin(L, 1 << 16);
        while (!pq.empty() && pq.limit_top() < L) {
            const std::uint64_t x = pq.limit_top();
            pq.limit_pop();
            take(x);
            if (x % 1024 == 0 && reinserted < 1000) {  // a few items come back, at L or later
                pq.limit_push(L + x % 7);
                sum -= L + x % 7;  // they are popped (and summed) once more later
                --popped;
                ++reinserted;
            }
        }
        pq.limit_end();
    }

    std::uint64_t expected = 0;
    for (std::uint64_t i = 0; i < n; ++i) expected += key_of(i);
    const auto s = pq.stats();
    const bool ok = ordered && popped == n && sum == expected;
    std::cout << "popped " << popped << " items, " << reinserted << " reinserted by limit_push\n"
              << "stats: " << s.flushes << " flushes to disk, " << s.external_merges
              << " external merges, " << (s.bytes_written >> 20) << " MiB written, "
              << (s.bytes_read >> 20) << " MiB read, prefetch hits/misses " << s.prefetch_hits
              << "/" << s.prefetch_misses << ", peak memory " << (s.peak_memory_bytes >> 20)
              << " MiB\n"
              << (ok ? "OK: every item once, in order" : "FAILED") << "\n";
    return ok ? 0 : 1;
}
