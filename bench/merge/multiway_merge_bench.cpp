// SPDX-License-Identifier: BSL-1.0
// The PPQ's multiway merge against libstdc++'s, on k sorted runs of random 64-bit keys:
// libstdc++'s sequential merge (unrolled up to 4 runs, its loser tree beyond), emflow's
// sequential merge (ppq/sequential_merge.hpp: the same up to 4 runs, cascades of them beyond),
// libstdc++'s parallel mode __gnu_parallel::multiway_merge (OpenMP), and the PPQ's parallel
// merge (ppq/parallel_algorithms.hpp: multisequence selection cuts the output into one part per
// thread, each part merged by emflow's sequential merge, threads from algorithm::workers).
// Also merges of a prefix (the rank limits of bulk_pop). Output is verified against libstdc++'s
// sequential merge. Prints CSV:
// bench,k,items,prefix,variant,seconds,speedup   (speedup = libstdc++ sequential time / time)
//
//   multiway_merge_bench [log2 items = 26] [repetitions = 5]
#include <emflow/algorithm/parallel_algorithms.hpp>

#include <parallel/multiway_merge.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

using u64 = std::uint64_t;
using seq = std::pair<u64*, u64*>;

namespace {

struct runs {
    std::vector<std::vector<u64>> data;
    std::vector<seq> seqs() {
        std::vector<seq> s;
        for (auto& r : data) s.emplace_back(r.data(), r.data() + r.size());
        return s;
    }
};

runs make_runs(std::size_t n, std::size_t k, std::mt19937_64& rng) {
    runs r;
    r.data.resize(k);
    for (std::size_t i = 0; i < k; ++i) {
        r.data[i].resize(n / k);
        for (auto& x : r.data[i]) x = rng();
        std::sort(r.data[i].begin(), r.data[i].end());
    }
    return r;
}

template <class F>
double median_seconds(int reps, F&& f) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = std::size_t(1) << (argc > 1 ? std::atoi(argv[1]) : 26);
    const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    const unsigned threads = std::max(1, omp_get_num_procs());
    std::mt19937_64 rng(5);
    std::less<u64> less;
    emflow::algorithm::workers workers(threads);
    std::printf("bench,k,items,prefix,variant,seconds,speedup\n");
    for (std::size_t k : {2, 3, 4, 5, 8, 16, 64, 256}) {
        runs in = make_runs(n, k, rng);
        const std::size_t total = n / k * k;
        for (std::size_t prefix : {total, total / 16}) {
            std::vector<u64> expect(prefix), out(prefix);
            double t_lib = median_seconds(reps, [&] {
                auto s = in.seqs();
                const u64 unused_sentinel = 0;
                __gnu_parallel::__sequential_multiway_merge<false, false>(
                    s.begin(), s.end(), expect.data(), unused_sentinel, std::ptrdiff_t(prefix),
                    less);
            });
            const auto timed = [&](auto&& merge) {
                std::fill(out.begin(), out.end(), 0);
                double t = median_seconds(reps, [&] {
                    auto s = in.seqs();
                    merge(s);
                });
                if (out != expect) std::exit(1);
                return t;
            };
            double t_seq = timed([&](std::vector<seq>& s) {
                emflow::algorithm::detail::merge_sequential(s, out.data(), prefix, less);
            });
            double t_gnu = timed([&](std::vector<seq>& s) {
                __gnu_parallel::multiway_merge(s.begin(), s.end(), out.data(),
                                               std::ptrdiff_t(prefix), less,
                                               __gnu_parallel::parallel_tag(threads));
            });
            double t_ppq = timed([&](std::vector<seq>& s) {
                emflow::algorithm::multiway_merge(s, out.data(), prefix, less, workers);
            });
            for (auto [name, t] : {std::pair<const char*, double>{"libstdc++_sequential", t_lib},
                                   {"sequential", t_seq},
                                   {"gnu_parallel", t_gnu},
                                   {"ppq", t_ppq}})
                std::printf("merge,%zu,%zu,%zu,%s,%.4f,%.3f\n", k, total, prefix, name, t,
                            t_lib / t);
            std::fflush(stdout);
        }
    }
    return 0;
}
