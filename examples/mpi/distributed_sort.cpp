// SPDX-License-Identifier: BSL-1.0
// distributed_sort: every rank generates its share of a data set into an external vector, the
// ranks sort the union together (emflow::mpi::distributed_sort), and check the result where it
// lies (sorted_across_ranks, and a checksum of the multiset). Rank 0 prints the totals; every
// rank prints its slice, throughput and traffic.
//
//   mpirun -np 4 distributed_sort [items_per_rank=20000000] [memory_mib=64]
#include <emflow/hash.hpp>

#include <emflow/flow.hpp>
#include <emflow/mpi/distributed_sort.hpp>
#include <emflow/mpi/environment.hpp>
#include <emflow/mpi/external_memory.hpp>
#include <emflow/mpi/sorted_check.hpp>
#include <emflow/timing.hpp>

#include <stxxl/vector>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>

using emflow::mix64;
using emflow::seconds_since;

int main(int argc, char** argv) {
    return emflow::mpi::run_main(argc, argv, [&](const emflow::mpi::communicator& world) {
        const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
        const std::size_t memory = std::size_t(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64)
                                   << 20;
        emflow::mpi::configure_rank_external_memory(world, {});

        using vector_t = stxxl::VECTOR_GENERATOR<std::uint64_t>::result;
        vector_t input, output;
        std::mt19937_64 rng(1000 + std::uint64_t(world.rank()));
        emflow::materialize(emflow::generate(n, [&] { return rng() >> 1; }), input);

        world.barrier();
        auto t0 = std::chrono::steady_clock::now();
        auto stats = emflow::mpi::distributed_sort(
            world, [&] { return emflow::streamify(input); }, output, std::less<std::uint64_t>(),
            memory);
        double secs = seconds_since(t0);

        // Sorted across the ranks, and the union keeps its multiset (order-independent checksum).
        std::uint64_t in_sum = 0, out_sum = 0;
        for (auto it = input.cbegin(); it != input.cend(); ++it) in_sum += mix64(*it);
        for (auto it = output.cbegin(); it != output.cend(); ++it) out_sum += mix64(*it);
        const bool sorted =
            emflow::mpi::sorted_across_ranks(world, output, std::less<std::uint64_t>());
        const bool same = world.allreduce_sum(in_sum) == world.allreduce_sum(out_sum);

        std::ostringstream line;
        line << "rank " << world.rank() << ": " << stats.input_items << " items in, "
             << stats.output_items << " out, " << secs << " s, "
             << double(stats.input_items) / secs / 1e6 << " M items/s, "
             << double(stats.exchange.bytes_sent) /
                    double(std::max<std::uint64_t>(1, stats.input_items))
             << " bytes sent per item, senders waited " << stats.exchange.send_wait_seconds
             << " s\n";
        std::cout << line.str() << std::flush;
        world.barrier();
        if (world.rank() == 0)
            std::cout << "distributed_sort: " << stats.total_items << " items on " << world.size()
                      << " ranks (" << (stats.total_items * 8 >> 20) << " MiB, memory "
                      << (memory >> 20) << " MiB per rank) in " << secs
                      << " s: " << (sorted && same ? "sorted" : "NOT SORTED") << "\n";
        if (!sorted || !same) throw std::runtime_error("the output is not the sorted input");
    });
}
