// SPDX-License-Identifier: BSL-1.0
// The Diamond flow graph of Figure 6 over a large input: runs the traditional and the parallel
// variant on the same external vector of random pairs and verifies identical output (size,
// order-dependent hash of the output) and checksums. The memory is one budget for the whole
// graph; the progress of each phase goes to stderr unless --quiet.
//
//   diamond [--quiet] [input MiB = 1024] [memory MiB = 1024] [threads = all]
#include <emflow/pipelines/diamond/diamond.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace emflow;
using namespace emflow::pipelines::diamond;

namespace {

//! Order-dependent hash of the output vector (one streaming pass).
std::uint64_t ordered_hash(const diamond_output& out) {
    std::uint64_t h = 0;
    materialize(streamify(out) | tap([&h](const diamond_quad& q) {
                    h = (h * 0x100000001B3ull) ^ q.first.first ^ (q.first.second << 1) ^
                        (q.second.first << 2) ^ (q.second.second << 3);
                }),
                count_sink<diamond_quad>());
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    emflow::ensure_external_memory();
    bool quiet = false;
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--quiet")
            quiet = true;
        else
            args.emplace_back(argv[i]);
    }
    const std::uint64_t input_mib = args.size() > 0 ? std::stoull(args[0]) : 1024;
    const std::uint64_t memory_mib = args.size() > 1 ? std::stoull(args[1]) : 1024;
    if (args.size() > 2) set_flow_concurrency(std::stoi(args[2]));
    std::optional<progress> report;
    if (!quiet) report.emplace(stderr_renderer());
    const std::uint64_t n = (input_mib << 20) / sizeof(diamond_pair);

    diamond_input in;
    {
        std::mt19937_64 rng(42);
        materialize(generate(n, [&rng] { return diamond_pair{rng(), rng()}; }), in);
    }
    diamond_options cfg;
    cfg.memory_bytes = memory_mib << 20;
    cfg.report = report ? &*report : nullptr;

    std::uint64_t hashes[2];
    diamond_checksums sums[2];
    for (int v = 0; v < 2; ++v) {
        diamond_output out;
        auto t0 = std::chrono::steady_clock::now();
        sums[v] =
            run_diamond(in, out, v ? diamond_variant::parallel : diamond_variant::traditional, cfg);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        hashes[v] = ordered_hash(out);
        std::printf(
            "%-11s %llu pairs (%llu MiB), memory %llu MiB: %.2f s, output checksum %016llx, "
            "output hash %016llx\n",
            v ? "parallel" : "traditional", (unsigned long long)n, (unsigned long long)input_mib,
            (unsigned long long)memory_mib, s, (unsigned long long)sums[v].output.value(),
            (unsigned long long)hashes[v]);
    }
    bool same = hashes[0] == hashes[1] && sums[0].output == sums[1].output &&
                sums[0].input == sums[1].input && sums[0].asc_path == sums[0].input &&
                sums[0].desc_path == sums[0].input && sums[1].asc_path == sums[1].input &&
                sums[1].desc_path == sums[1].input && sums[0].output.count() == n;
    std::printf("%s\n", same ? "identical output and checksums" : "MISMATCH");
    return same ? 0 : 1;
}
