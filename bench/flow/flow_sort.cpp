// SPDX-License-Identifier: BSL-1.0
// Sorting nodes against STXXL's own stxxl::sorter on the same external input: random 64-bit
// keys in an stxxl::vector, sorted within a memory budget and streamed into a checking sink
// (order, count and checksum verified). emflow's sort node is measured with async run formation
// (Figure 5) and parallel or sequential run sorts (block quicksort for these 64-bit keys), and
// with inline runs. STXXL's sorter runs
// first, with its defaults (before emflow switches STXXL to its sequential merge). Prints CSV:
// bench,variant,input_mib,memory_mib,seconds,speedup  (speedup = stxxl_sorter time / time)
//
//   flow_sort [input MiB = 2048] [memory MiB = 256]
#include <emflow/flow.hpp>

#include <stxxl/sorter>
#include <stxxl/vector>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

using namespace emflow;
using u64 = std::uint64_t;

namespace {

struct ascending {
    bool operator()(u64 a, u64 b) const { return a < b; }
    u64 min_value() const { return 0; }
    u64 max_value() const { return std::numeric_limits<u64>::max(); }
};

//! Checks that the stream is sorted and sums it; throws on disorder.
struct checking_sink {
    using value_type = u64;
    u64 count = 0, sum = 0, last = 0;
    void start(run_context&) {}
    void push(u64 x) { push_batch(&x, 1); }
    void push_batch(const u64* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            if (p[i] < last) throw std::runtime_error("flow_sort: output not sorted");
            last = p[i];
            sum += p[i];
        }
        count += n;
    }
    void push_stop() {}
};

using input_vector = stxxl::VECTOR_GENERATOR<u64>::result;

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    ensure_external_memory();
    const u64 input_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2048;
    const u64 memory_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
    const std::size_t memory = std::size_t(memory_mib) << 20;
    const u64 n = (input_mib << 20) / sizeof(u64);

    input_vector in;
    u64 expect_sum = 0;
    {
        std::mt19937_64 rng(11);
        materialize(generate(n,
                             [&] {
                                 u64 x = rng() >> 1;  // below max_value(), the sentinel
                                 expect_sum += x;
                                 return x;
                             }),
                    in);
    }
    auto check = [&](const checking_sink& s, const char* variant) {
        if (s.count != n || s.sum != expect_sum) {
            std::fprintf(stderr, "flow_sort: %s lost or changed items\n", variant);
            std::exit(1);
        }
    };
    std::printf("bench,variant,input_mib,memory_mib,seconds,speedup\n");

    double base;
    {
        auto t0 = std::chrono::steady_clock::now();
        stxxl::sorter<u64, ascending> sorter(ascending{}, memory);
        for (input_vector::bufreader_type r(in); !r.empty(); ++r) sorter.push(*r);
        sorter.sort();
        checking_sink s;
        for (; !sorter.empty(); ++sorter) s.push(*sorter);
        base = since(t0);
        check(s, "stxxl_sorter");
        std::printf("sort,stxxl_sorter,%llu,%llu,%.2f,1.000\n", (unsigned long long)input_mib,
                    (unsigned long long)memory_mib, base);
        std::fflush(stdout);
    }
    struct variant {
        const char* name;
        sort_options opt;
    };
    for (variant v : {variant{"emflow_async_parallel", {true, true}},
                      variant{"emflow_async_sequential", {true, false}},
                      variant{"emflow_inline_sequential", {false, false}}}) {
        auto t0 = std::chrono::steady_clock::now();
        checking_sink s;
        materialize(streamify(in) | sort(ascending{}, memory, v.opt), s);
        double secs = since(t0);
        check(s, v.name);
        std::printf("sort,%s,%llu,%llu,%.2f,%.3f\n", v.name, (unsigned long long)input_mib,
                    (unsigned long long)memory_mib, secs, base / secs);
        std::fflush(stdout);
    }
    return 0;
}
