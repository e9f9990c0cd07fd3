// distributed_sort: every rank generates its share of a data set into an external vector, the
// ranks sort the union together (emflow::mpi::distributed_sort), and each checks its slice.
// Rank 0 prints the totals; every rank prints its slice, throughput and traffic.
//
//   mpirun -np 4 distributed_sort [items_per_rank=20000000] [memory_mib=64]
#include <emflow/flow.hpp>
#include <emflow/mpi/distributed_sort.hpp>
#include <emflow/mpi/environment.hpp>
#include <emflow/mpi/external_memory.hpp>

#include <stxxl/vector>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace {

struct u64_order {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

std::uint64_t mix(std::uint64_t v) { return (v ^ (v >> 31)) * 0x7FB5D329728EA185ull; }

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
    return emflow::mpi::run_main(argc, argv, [&](const emflow::mpi::communicator& world) {
        const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
        const std::size_t memory = std::size_t(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64) << 20;
        emflow::mpi::configure_rank_external_memory(world, {});

        using vector_t = stxxl::VECTOR_GENERATOR<std::uint64_t>::result;
        vector_t input, output;
        std::mt19937_64 rng(1000 + std::uint64_t(world.rank()));
        emflow::materialize(emflow::generate(n, [&] { return rng() >> 1; }), input);

        world.barrier();
        auto t0 = std::chrono::steady_clock::now();
        auto stats = emflow::mpi::distributed_sort(world, [&] { return emflow::streamify(input); }, output,
                                                   u64_order{}, memory);
        double secs = seconds_since(t0);

        // The slice is sorted, and the union keeps its multiset (order-independent checksum).
        std::uint64_t in_sum = 0, out_sum = 0, prev = 0, first = ~std::uint64_t(0), last = 0;
        bool ordered = true;
        for (auto it = input.cbegin(); it != input.cend(); ++it) in_sum += mix(*it);
        for (auto it = output.cbegin(); it != output.cend(); ++it) {
            ordered &= prev <= *it;
            prev = *it;
            out_sum += mix(*it);
            first = std::min(first, *it);
            last = std::max(last, *it);
        }
        struct slice {
            std::uint64_t first, last, size;
        };
        auto slices = world.allgather(slice{first, last, output.size()});
        for (std::size_t r = 0; r + 1 < slices.size(); ++r)
            ordered &= slices[r].size == 0 || slices[r + 1].size == 0 || slices[r].last <= slices[r + 1].first;
        bool same = world.allreduce_sum(in_sum) == world.allreduce_sum(out_sum);
        bool all_ordered = world.allreduce_sum(ordered ? 0 : 1) == 0;

        std::ostringstream line;
        line << "rank " << world.rank() << ": " << stats.input_items << " items in, " << stats.output_items
             << " out, " << secs << " s, " << double(stats.input_items) / secs / 1e6 << " M items/s, "
             << double(stats.exchange.bytes_sent) / double(std::max<std::uint64_t>(1, stats.input_items))
             << " bytes sent per item, senders waited " << stats.exchange.send_wait_seconds << " s\n";
        std::cout << line.str() << std::flush;
        world.barrier();
        if (world.rank() == 0)
            std::cout << "distributed_sort: " << stats.total_items << " items on " << world.size() << " ranks ("
                      << (stats.total_items * 8 >> 20) << " MiB, memory " << (memory >> 20)
                      << " MiB per rank) in " << secs << " s: " << (all_ordered && same ? "sorted" : "NOT SORTED")
                      << "\n";
        if (!all_ordered || !same) throw std::runtime_error("the output is not the sorted input");
    });
}
