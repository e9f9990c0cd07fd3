// SPDX-License-Identifier: BSL-1.0
// quickstart: generated items through STXXL's external vector and sorter under a small memory
// limit, on disks emflow configures itself. Prints throughput and a checksum verdict.
//
//   quickstart [items=40000000] [memory_mib=64]
#include "example_support.hpp"

#include <emflow/external_memory.hpp>
#include <stxxl/sorter>
#include <stxxl/vector>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>

using emflow_example::mix;
using emflow_example::seconds_since;
using emflow_example::u64_order;

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 40'000'000;
    const std::uint64_t memory = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64) << 20;

    const auto& em = emflow::configure_external_memory();
    std::cout << "emflow quickstart: " << n << " items (" << (n * 8 >> 20) << " MiB), memory "
              << (memory >> 20) << " MiB, disks under " << em.dir.parent_path() << "\n";

    auto t0 = std::chrono::steady_clock::now();
    stxxl::VECTOR_GENERATOR<std::uint64_t, 4, 4, 1024 * 1024>::result input;
    std::mt19937_64 rng(42);
    std::uint64_t in_sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t v = rng();
        input.push_back(v);
        in_sum += mix(v);
    }
    const double t_write = seconds_since(t0);

    t0 = std::chrono::steady_clock::now();
    stxxl::sorter<std::uint64_t, u64_order> sorter(u64_order(), memory);
    for (auto it = input.cbegin(); it != input.cend(); ++it) sorter.push(*it);
    sorter.sort();
    std::uint64_t out_sum = 0, count = 0, prev = 0;
    bool ordered = true;
    for (; !sorter.empty(); ++sorter, ++count) {
        ordered &= count == 0 || prev <= *sorter;
        prev = *sorter;
        out_sum += mix(prev);
    }
    const double t_sort = seconds_since(t0);

    const auto io = emflow::current_io_volume();
    const bool ok = ordered && count == n && out_sum == in_sum;
    std::cout << "  write vector: " << t_write << " s, " << n / t_write / 1e6 << " M items/s\n"
              << "  sort:         " << t_sort << " s, " << n / t_sort / 1e6 << " M items/s\n"
              << "  I/O: " << (io.bytes_read >> 20) << " MiB read, " << (io.bytes_written >> 20)
              << " MiB written\n"
              << "  checksum " << std::hex << out_sum << std::dec
              << (ok ? ": OK (sorted, complete)" : ": FAILED") << "\n";
    return ok ? 0 : 1;
}
