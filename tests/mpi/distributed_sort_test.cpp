// SPDX-License-Identifier: BSL-1.0
// The distributed sort under 1-4 ranks against std::sort of the union of all ranks' inputs:
// random keys, all keys equal, few distinct keys, an empty rank, no input at all, and an input
// several times the sort's memory budget; the slices must be balanced, also under equal keys.
#include <catch2/catch.hpp>

#include "mpi_test_env.hpp"

#include <emflow/flow.hpp>
#include <emflow/mpi/distributed_sort.hpp>
#include <emflow/mpi/sorted_check.hpp>

#include <stxxl/vector>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace emflow;
using emflow_mpi_test::world;
using less_u64 = std::less<std::uint64_t>;
using u64 = std::uint64_t;

namespace {

using vector_t = stxxl::VECTOR_GENERATOR<u64>::result;

constexpr std::size_t budget = 4 << 20;

//! Sorts mine across the ranks; checks the concatenation of the slices against std::sort of
//! the union and the balance of the slices; returns this rank's slice size.
u64 sort_and_compare(const std::vector<u64>& mine, mpi::distributed_sort_options opt = {}) {
    const auto& comm = world();
    vector_t out;
    auto stats = mpi::distributed_sort(
        comm, [&] { return streamify(mine); }, out, less_u64{}, budget, opt);
    std::vector<u64> slice(out.begin(), out.end());
    CHECK(stats.input_items == mine.size());
    CHECK(stats.output_items == slice.size());
    std::vector<u64> expect = comm.allgatherv(mine);
    std::sort(expect.begin(), expect.end());
    std::vector<u64> got = comm.allgatherv(slice);
    CHECK(stats.total_items == expect.size());
    CHECK(got == expect);
    // Balanced: no slice much above its share (sampling error allowed).
    u64 share = expect.size() / u64(comm.size());
    CHECK(slice.size() <= share + share / 2 + 64);
    return slice.size();
}

std::vector<u64> random_keys(std::mt19937_64& rng, std::size_t n, u64 distinct) {
    std::vector<u64> v(n);
    for (auto& x : v) x = rng() % distinct;
    return v;
}

}  // namespace

TEST_CASE("distributed sort equals std::sort of the union", "[sort]") {
    auto& dir = emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    SECTION("random keys") {
        sort_and_compare(random_keys(rng, 100000 + rng() % 5000, ~u64(0) >> 1));
    }
    SECTION("all keys equal") { sort_and_compare(std::vector<u64>(80000, 42)); }
    SECTION("three distinct keys") { sort_and_compare(random_keys(rng, 90000, 3)); }
    SECTION("rank 0 without input") {
        sort_and_compare(world().rank() == 0 ? std::vector<u64>() : random_keys(rng, 60000, 1000));
    }
    SECTION("no input anywhere") { CHECK(sort_and_compare({}) == 0); }
    SECTION("small messages and samples") {
        mpi::distributed_sort_options opt;
        opt.exchange.message_bytes = 4096;
        opt.samples_per_rank = 16;
        auto v = random_keys(rng, 30000, 100);
        const auto& comm = world();
        vector_t out;
        mpi::distributed_sort(
            comm, [&] { return streamify(v); }, out, less_u64{}, budget, opt);
        std::vector<u64> expect = comm.allgatherv(v),
                         got = comm.allgatherv(std::vector<u64>(out.begin(), out.end()));
        std::sort(expect.begin(), expect.end());
        CHECK(got == expect);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("distributed sort of an input many times the memory budget, from stxxl vectors",
          "[sort]") {
    auto& dir = emflow_mpi_test::configure_rank_disks();
    const auto& comm = world();
    u64 seed = emflow_mpi_test::rank_seed(comm);
    const std::size_t n = 5 * budget / sizeof(u64);  // 5x the sort's budget on every rank
    vector_t in, out;
    std::mt19937_64 rng(seed);
    materialize(generate(n, [&] { return rng() >> 1; }), in);
    auto stats = mpi::distributed_sort(
        comm, [&] { return streamify(in); }, out, less_u64{}, budget);
    // Too large to gather: sorted slices, ordered across ranks, the same multiset (sum and
    // sum of a mixing function), balanced.
    CHECK(mpi::sorted_across_ranks(comm, out, less_u64{}));
    u64 sum = 0, mix = 0;
    for (auto it = out.cbegin(); it != out.cend(); ++it) {
        u64 x = *it;
        sum += x;
        mix += (x * 0x9E3779B97F4A7C15ull) ^ (x >> 29);
    }
    u64 in_sum = 0, in_mix = 0;
    for (auto it = in.cbegin(); it != in.cend(); ++it) {
        in_sum += *it;
        in_mix += (*it * 0x9E3779B97F4A7C15ull) ^ (*it >> 29);
    }
    CHECK(comm.allreduce_sum(sum) == comm.allreduce_sum(in_sum));
    CHECK(comm.allreduce_sum(mix) == comm.allreduce_sum(in_mix));
    CHECK(comm.allreduce_sum(out.size()) == n * std::size_t(comm.size()));
    CHECK(out.size() <= n + n / 4);
    CHECK(stats.exchange.items_sent == n);
    in.clear();
    out.clear();
    CHECK(dir.entries() == 0);
}

TEST_CASE("sorted_across_ranks finds unsorted slices and slices out of rank order", "[sort]") {
    const auto& comm = world();
    const u64 r = u64(comm.rank()), p = u64(comm.size());
    // Rank r holds [10r, 10r + 5), odd ranks nothing: sorted across ranks.
    auto slice = [&](u64 base) {
        std::vector<u64> v;
        if (r % 2 == 0)
            for (u64 i = 0; i < 5; ++i) v.push_back(base + i);
        return v;
    };
    CHECK(mpi::sorted_across_ranks(comm, slice(10 * r), less_u64{}));
    CHECK(mpi::sorted_across_ranks(comm, std::vector<u64>(), less_u64{}));
    // The last rank's slice unsorted inside.
    auto v = slice(10 * r);
    if (r == p - 1) v = {3, 2};
    CHECK_FALSE(mpi::sorted_across_ranks(comm, v, less_u64{}));
    // Slices in reverse rank order: unsorted across ranks as soon as two are non-empty.
    bool two = comm.allreduce_sum(r % 2 == 0 ? 1 : 0) >= 2;
    CHECK(mpi::sorted_across_ranks(comm, slice(10 * (p - r)), less_u64{}) == !two);
}
