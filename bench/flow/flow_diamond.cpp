// SPDX-License-Identifier: BSL-1.0
// The Diamond graph (Figure 6), traditional vs parallel pipelining, on the same input, with one
// thread per run sort (std::sort, as the paper's 2.40x row) or tbb::parallel_sort. Prints CSV
// rows: bench,variant,run_sort,input_mib,memory_mib,seconds,gib_io,speedup
//
//   flow_diamond [input MiB = 1024] [memory MiB = 1024] [run sort: seq|par|both = both]
#include <emflow/pipelines/diamond/diamond.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace emflow;
using namespace emflow::pipelines::diamond;

int main(int argc, char** argv) {
    ensure_external_memory();
    const std::uint64_t input_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
    const std::uint64_t memory_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1024;
    const char* mode = argc > 3 ? argv[3] : "both";
    const std::uint64_t n = (input_mib << 20) / sizeof(diamond_pair);

    diamond_input in;
    {
        std::mt19937_64 rng(7);
        materialize(generate(n, [&rng] { return diamond_pair{rng(), rng()}; }), in);
    }
    std::printf("bench,variant,run_sort,input_mib,memory_mib,seconds,gib_io,speedup\n");
    for (bool par_sort : {false, true}) {
        if ((par_sort && !std::strcmp(mode, "seq")) || (!par_sort && !std::strcmp(mode, "par")))
            continue;
        double secs[2];
        checksum outs[2];
        for (int v = 0; v < 2; ++v) {
            diamond_options cfg;
            cfg.memory_bytes = memory_mib << 20;
            cfg.parallel_sort = par_sort;
            diamond_output out;
            auto io0 = current_io_volume();
            auto t0 = std::chrono::steady_clock::now();
            outs[v] = run_diamond(in, out,
                                  v ? diamond_variant::parallel : diamond_variant::traditional, cfg)
                          .output;
            secs[v] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            auto io1 = current_io_volume();
            double gib =
                double(io1.bytes_read - io0.bytes_read + io1.bytes_written - io0.bytes_written) /
                (1 << 30);
            if (out.size() != n) return 1;
            std::printf("diamond,%s,%s,%llu,%llu,%.2f,%.2f,%.3f\n", v ? "parallel" : "traditional",
                        par_sort ? "parallel_sort" : "std_sort", (unsigned long long)input_mib,
                        (unsigned long long)memory_mib, secs[v], gib, v ? secs[0] / secs[1] : 1.0);
            std::fflush(stdout);
        }
        if (outs[0] != outs[1]) {
            std::printf("MISMATCH\n");
            return 1;
        }
    }
    return 0;
}
