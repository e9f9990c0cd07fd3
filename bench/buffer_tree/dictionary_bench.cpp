// SPDX-License-Identifier: BSL-1.0
// bench/buffer_tree/dictionary_bench.cpp: the buffer tree as a batched dictionary. n inserts of
// random (key, value) pairs, flush, then n mixed operations (half look-ups, a quarter inserts,
// a quarter erases), flush, answers drained; n pairs fill k times the budget. Reports the
// mixed phase's operations per second and its disk volume per operation against Arge's bound
// (1/B) log_m(n/B) blocks. CSV on stdout.
//
//   dictionary_bench [budget_mib=16] [multiples=4,16]
#include <emflow/buffer_tree.hpp>
#include <emflow/external_memory.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using u64 = std::uint64_t;
constexpr std::size_t block_bytes = std::size_t(64) << 10;
using tree = emflow::buffer_tree<u64, u64, std::less<u64>, block_bytes>;

struct phase {
    double seconds;
    double mib_moved;
};

template <class F>
phase measure(F&& f) {
    const auto io0 = emflow::current_io_volume();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto io1 = emflow::current_io_volume();
    return {s, double(io1.bytes_read - io0.bytes_read + io1.bytes_written - io0.bytes_written) /
                   1048576.0};
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t budget = (argc > 1 ? std::stoul(argv[1]) : 16) << 20;
    std::vector<std::size_t> multiples;
    std::stringstream in(argc > 2 ? argv[2] : "4,16");
    for (std::string item; std::getline(in, item, ',');) multiples.push_back(std::stoul(item));
    emflow::ensure_external_memory();
    std::printf(
        "multiple,pairs,budget_mib,insert_seconds,mixed_seconds,mixed_mops_per_s,mixed_mib_moved,"
        "blocks_per_op,bound_blocks_per_op,ratio_to_bound,answers,height\n");
    for (std::size_t k : multiples) {
        const std::size_t n = k * budget / (2 * sizeof(u64));
        std::mt19937_64 rng(k);
        emflow::buffer_tree_options opt;
        opt.memory_bytes = budget;
        tree t(std::less<u64>(), opt);
        const u64 range = 2 * u64(n);
        const phase ins = measure([&] {
            for (std::size_t i = 0; i < n; ++i) t.insert(rng() % range, i);
            t.flush();
        });
        std::uint64_t answers = 0;
        const phase mixed = measure([&] {
            for (std::size_t i = 0; i < n; ++i) {
                const u64 key = rng() % range;
                const unsigned what = rng() % 4;
                if (what < 2)
                    t.lookup(key);
                else if (what == 2)
                    t.insert(key, i);
                else
                    t.erase(key);
                if (t.answers_waiting() > (1u << 16))
                    for (; !t.empty(); t += t.batch_length()) answers += t.batch_length();
            }
            t.flush();
            for (; !t.empty(); t += t.batch_length()) answers += t.batch_length();
        });
        const double big_b = double(block_bytes) / (2 * sizeof(u64) + 16);  // requests per block
        const double m = double(budget) / block_bytes;
        const double bound = std::log(double(n) / big_b) / std::log(m) / big_b;
        const double per_op = mixed.mib_moved * 1048576.0 / block_bytes / double(n);
        std::printf("%zu,%zu,%zu,%.3f,%.3f,%.3f,%.1f,%.5f,%.5f,%.2f,%llu,%zu\n", k, n, budget >> 20,
                    ins.seconds, mixed.seconds, n / mixed.seconds / 1e6, mixed.mib_moved, per_op,
                    bound, per_op / bound, static_cast<unsigned long long>(answers),
                    t.stats().height);
        std::fflush(stdout);
    }
}
