// SPDX-License-Identifier: BSL-1.0
// The distribute/collect flow graph of Figure 7: generating random input in parallel.
// Part 1 (the dashed rectangle in the paper): k generator nodes, each behind an async pull node,
// collected buffer-wise round-robin into an external vector. Part 2: a source pumped through
// distribute into k workers (async push -> transform -> push-pull), collected in order; the
// connect node makes the pump reachable from the primary sink. Both are checked against the
// sequential graph.
//
//   distribute_collect [million elements = 64] [workers = 2]
#include <emflow/flow.hpp>
#include <emflow/timing.hpp>

#include <stxxl/vector>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

using namespace emflow;
using u64 = std::uint64_t;

namespace {

//! A deliberately expensive generator step: several rounds of a 64-bit mixer.
u64 random_step(u64 x) {
    for (int i = 0; i < 16; ++i)
        x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
    return x;
}

auto generator(u64 seed) {
    return [x = seed]() mutable { return x = random_step(x); };
}

using emflow::seconds_since;

}  // namespace

int main(int argc, char** argv) {
    emflow::ensure_external_memory();
    const u64 n = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64) * 1000000;
    const int workers = argc > 2 ? std::atoi(argv[2]) : 2;
    const std::size_t chunk = 1 << 15;
    stxxl::VECTOR_GENERATOR<u64>::result seq, par;
    bool ok = true;

    // Part 1: k generators (here two), async pulls, collect.
    auto t0 = std::chrono::steady_clock::now();
    materialize(collect(chunk, generate(n / 2, generator(1)), generate(n - n / 2, generator(2))),
                seq);
    double t_seq = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    materialize(collect(chunk, async_pull(generate(n / 2, generator(1)), elements(chunk)),
                        async_pull(generate(n - n / 2, generator(2)), elements(chunk))),
                par);
    double t_par = seconds_since(t0);
    ok =
        ok && seq.size() == n && par.size() == n && std::equal(seq.begin(), seq.end(), par.begin());
    std::printf(
        "generate %llu random numbers: sequential %.2f s, 2 async generators %.2f s (%.2fx)\n",
        (unsigned long long)n, t_seq, t_par, t_seq / t_par);

    // Part 2: source -> pump -> distribute -> k x (async push -> transform -> push-pull) ->
    // collect.
    std::vector<push_pull_node<u64>> pps;
    for (int i = 0; i < 2; ++i) pps.emplace_back(elements(chunk));
    auto work = [](u64 x) { return random_step(x); };
    auto counter = [i = u64(0)]() mutable { return i++; };
    t0 = std::chrono::steady_clock::now();
    materialize(generate(n, counter) | transform(work), seq);
    t_seq = seconds_since(t0);
    auto driver =
        pump(generate(n, counter),
             distribute(chunk, async_push(push_transform<u64>(pps[0], work), elements(chunk)),
                        async_push(push_transform<u64>(pps[1], work), elements(chunk))));
    t0 = std::chrono::steady_clock::now();
    materialize(connect(collect(chunk, pps[0], pps[1]), driver), par);
    t_par = seconds_since(t0);
    ok = ok && par.size() == n && std::equal(seq.begin(), seq.end(), par.begin());
    std::printf(
        "transform %llu elements: sequential %.2f s, distribute/collect over 2 workers %.2f s "
        "(%.2fx)\n",
        (unsigned long long)n, t_seq, t_par, t_seq / t_par);
    (void)workers;
    std::printf("%s\n", ok ? "identical output" : "MISMATCH");
    return ok ? 0 : 1;
}
