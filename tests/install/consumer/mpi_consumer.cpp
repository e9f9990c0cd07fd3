// SPDX-License-Identifier: BSL-1.0
// A program outside the emflow tree, built against an installed emflow's MPI component: every
// rank routes its numbers to their owners (value mod ranks) through an exchange.
#include <emflow/mpi/environment.hpp>
#include <emflow/mpi/exchange.hpp>
#include <emflow/mpi/external_memory.hpp>
#include <emflow/nodes/generate.hpp>
#include <emflow/nodes/materialize.hpp>

#include <cstdint>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <vector>

int main(int argc, char** argv) {
    return emflow::mpi::run_main(argc, argv, [](const emflow::mpi::communicator& world) {
        emflow::mpi::configure_rank_external_memory(world, {});
        const int p = world.size();
        emflow::mpi::exchange<std::uint64_t> x(world);
        std::vector<std::uint64_t> mine;
        emflow::materialize(
            emflow::mpi::route(
                emflow::generate(100000, [i = std::uint64_t(0)]() mutable { return i++; }), x,
                [p](std::uint64_t v) { return int(v % std::uint64_t(p)); }),
            std::back_inserter(mine));
        bool owned = true;
        for (std::uint64_t v : mine) owned &= v % std::uint64_t(p) == std::uint64_t(world.rank());
        const bool ok = world.allreduce_sum(mine.size()) == 100000u * std::uint64_t(p) &&
                        world.allreduce_sum(owned ? 0 : 1) == 0;
        if (world.rank() == 0)
            std::cout << "mpi consumer: " << p << " ranks " << (ok ? "ok" : "WRONG") << "\n";
        if (!ok) throw std::runtime_error("items lost or misrouted");
    });
}
