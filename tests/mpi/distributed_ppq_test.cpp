// SPDX-License-Identifier: BSL-1.0
// The distributed bulk-parallel priority queue under 1-4 ranks against a sorted reference of
// the union of all ranks' items: global next-k bulks (distributed selection; random keys, few
// distinct keys, an empty rank), bulks before a limit, pushes between pops, size and empty.
#include <catch2/catch.hpp>

#include "mpi_test_env.hpp"

#include <emflow/flow.hpp>
#include <emflow/mpi/distributed_ppq.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

using namespace emflow;
using emflow_mpi_test::world;
using u64 = std::uint64_t;

namespace {

//! The owner of an item: a hash of it, so every rank owns a bit of every key range.
struct hash_owner {
    int ranks;
    int operator()(u64 x) const { return int(((x * 0x9E3779B97F4A7C15ull) >> 33) % u64(ranks)); }
};

using queue_t = mpi::distributed_ppq<u64, std::greater<u64>, hash_owner>;

ppq_options small_queue() {
    ppq_options cfg;
    cfg.memory_bytes = 16 << 20;
    return cfg;
}

//! Every rank's items, sorted (the single-process pop order of a min-queue).
std::vector<u64> sorted_union(const std::vector<u64>& mine) {
    auto all = world().allgatherv(mine);
    std::sort(all.begin(), all.end());
    return all;
}

//! Pops bulks of k until the queue is empty; checks each bulk's union against the reference.
void pop_all_in_bulks(queue_t& q, std::vector<u64> expect, std::size_t k) {
    std::size_t done = 0;
    std::vector<u64> bulk;
    while (!q.empty()) {
        q.bulk_pop(bulk, k);
        CHECK(std::is_sorted(bulk.begin(), bulk.end()));
        for (u64 x : bulk) CHECK(hash_owner{world().size()}(x) == world().rank());
        auto got = sorted_union(bulk);
        std::size_t n = std::min(k, expect.size() - done);
        REQUIRE(got.size() == n);
        CHECK(std::equal(got.begin(), got.end(), expect.begin() + std::ptrdiff_t(done)));
        done += n;
    }
    CHECK(done == expect.size());
}

}  // namespace

TEST_CASE("distributed PPQ: global next-k bulks equal the sorted union", "[ppq]") {
    emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    int p = world().size();
    for (u64 distinct : {u64(1) << 40, u64(5), u64(1)}) {
        for (std::size_t k : {std::size_t(1), std::size_t(777), std::size_t(20000)}) {
            std::size_t n =
                world().rank() == 0 && distinct == 5 ? 0 : 20000 + rng() % 1000;  // an empty rank
            std::vector<u64> mine(n);
            for (auto& x : mine) x = rng() % distinct;
            // One item per bulk: about 300 bulks in all, each a dozen collectives.
            if (k == 1) mine.resize(std::min<std::size_t>(n, 300 / std::size_t(p)));
            queue_t q(world(), hash_owner{p}, std::greater<u64>(), small_queue());
            q.bulk_push(streamify(mine));
            auto expect = sorted_union(mine);
            CHECK(q.size() == expect.size());
            pop_all_in_bulks(q, expect, k);
        }
    }
}

TEST_CASE("distributed PPQ: bulks before a limit, pushes between pops", "[ppq]") {
    emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    int p = world().size();
    queue_t q(world(), hash_owner{p}, std::greater<u64>(), small_queue());
    std::vector<u64> mine(30000);
    for (auto& x : mine) x = rng() % 100000;
    q.bulk_push(streamify(mine));
    std::vector<u64> reference = sorted_union(mine), bulk;
    u64 limit = 0;
    while (!q.empty()) {
        limit += 5000;
        bool done = q.bulk_pop_limit(bulk, limit);
        CHECK(done);
        auto got = sorted_union(bulk);
        auto end = std::lower_bound(reference.begin(), reference.end(), limit);
        CHECK(std::vector<u64>(reference.begin(), end) == got);
        reference.erase(reference.begin(), end);
        // Every rank pushes a few items after the limit (time-forward style).
        std::vector<u64> more;
        if (limit < 60000)
            for (int i = 0; i < 100; ++i) more.push_back(limit + rng() % 20000);
        q.bulk_push(streamify(more));
        auto all_more = sorted_union(more);
        std::vector<u64> merged;
        std::merge(reference.begin(), reference.end(), all_more.begin(), all_more.end(),
                   std::back_inserter(merged));
        reference.swap(merged);
        CHECK(q.size() == reference.size());
    }
    CHECK(reference.empty());
}
