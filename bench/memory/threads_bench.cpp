// SPDX-License-Identifier: BSL-1.0
// bench/memory/threads_bench.cpp: the bare PPQ fed from plain std::threads (issue 52's example):
// THREADS threads each bulk_push their share of N 16-byte records in one bulk phase, then
// everything is popped in bulks. Prints one CSV row: threads, items, budget_mib, seconds,
// peak_rss_mib (VmHWM). glibc's arenas (one per thread that meets another in malloc) keep
// freed memory outside the queue's account; run it under each allocator setting
// (EMFLOW_MALLOC_TUNING=off, MALLOC_ARENA_MAX=N) to compare.
//   threads_bench [THREADS=4] [N=10000000] [BUDGET_MIB=64]
#include <emflow/ppq.hpp>
#include <emflow/process_memory.hpp>
#include <emflow/timing.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace {

struct record {
    std::uint64_t key;
    std::uint64_t value;
};

struct record_greater {
    bool operator()(const record& a, const record& b) const { return a.key > b.key; }
};

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    return x ^ (x >> 27);
}

//! Reports a wrong result; exit status 3.
int fail(const char* what) {
    std::fprintf(stderr, "threads_bench: %s\n", what);
    return 3;
}

}  // namespace

int main(int argc, char** argv) {
    const unsigned threads = argc > 1 ? unsigned(std::atoi(argv[1])) : 4;
    const std::uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10000000;
    const std::size_t budget_mib = argc > 3 ? std::size_t(std::atoi(argv[3])) : 64;
    if (threads == 0 || n == 0 || budget_mib == 0) {
        std::fprintf(stderr, "usage: threads_bench [THREADS] [N] [BUDGET_MIB]\n");
        return 2;
    }
    emflow::configure_external_memory();
    emflow::ppq_options cfg;
    cfg.memory_bytes = budget_mib << 20;
    cfg.num_threads = threads;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t popped = 0;
    {
        emflow::parallel_priority_queue<record, record_greater> pq(record_greater(), cfg);
        pq.bulk_push_begin(n);
        std::vector<std::thread> pushers;
        for (unsigned t = 0; t < threads; ++t)
            pushers.emplace_back([&, t] {
                for (std::uint64_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
                    pq.bulk_push(record{mix(i), i}, t);
            });
        for (auto& th : pushers) th.join();
        pq.bulk_push_end();
        std::vector<record> out;
        for (std::uint64_t last = 0; popped < n; popped += out.size()) {
            pq.bulk_pop(out, 1 << 20);
            if (out.empty()) break;
            for (const record& r : out)
                if (r.key < last) return fail("popped out of order");
            last = out.back().key;
        }
    }
    if (popped != n) return fail("popped fewer items than pushed");
    std::printf("%u,%llu,%zu,%.3f,%.1f\n", threads, (unsigned long long)n, budget_mib,
                emflow::seconds_since(start), double(emflow::peak_rss_bytes()) / (1 << 20));
    return 0;
}
