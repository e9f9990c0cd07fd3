// SPDX-License-Identifier: BSL-1.0
// The exchange node under 1-4 ranks: every item sent arrives exactly once, at the rank chosen
// for it; random routing, everything to one rank, empty ranks, items smaller and larger than a
// message, and back-pressure with a tiny per-peer budget and a slow consumer.
#include <catch2/catch.hpp>

#include "mpi_test_env.hpp"

#include <emflow/flow.hpp>
#include <emflow/mpi/exchange.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

using namespace emflow;
using emflow_mpi_test::world;
using u64 = std::uint64_t;

namespace {

//! An item that knows where it came from, and a payload making it W words long.
template <std::size_t W>
struct item {
    u64 origin;  // sender rank
    u64 seq;     // position in the sender's stream
    u64 key;     // decides the destination
    std::array<u64, W - 3> filler;
};

//! An item's identity.
struct item_id {
    u64 origin, seq;
    bool operator<(const item_id& o) const {
        return origin != o.origin ? origin < o.origin : seq < o.seq;
    }
    bool operator==(const item_id& o) const { return origin == o.origin && seq == o.seq; }
};

//! The items of this rank: n with random keys.
template <std::size_t W>
std::vector<item<W>> make_items(std::size_t n, std::mt19937_64& rng) {
    std::vector<item<W>> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i].origin = u64(world().rank());
        v[i].seq = i;
        v[i].key = rng();
        v[i].filler.fill(v[i].key ^ i);
    }
    return v;
}

//! Runs the exchange of mine by rank_of and checks, across all ranks, that every item arrived
//! once, intact, at rank_of(item); returns the items this rank received.
template <std::size_t W, class RankOf>
std::vector<item<W>> exchange_and_check(const std::vector<item<W>>& mine, RankOf rank_of,
                                        mpi::exchange_options opt = {}) {
    const auto& comm = world();
    mpi::exchange<item<W>> x(comm, opt);
    std::vector<item<W>> got;
    const auto before = mpi::communication_counters();
    materialize(mpi::route(streamify(mine), x, rank_of), std::back_inserter(got));
    const auto used = mpi::communication_counters() - before;
    for (const auto& it : got) {
        CHECK(rank_of(it) == comm.rank());
        bool intact = true;
        for (u64 f : it.filler) intact &= f == (it.key ^ it.seq);
        CHECK(intact);
    }
    // Every (origin, seq) of every rank exactly once, over all ranks.
    std::vector<item_id> ids;
    for (const auto& it : got) ids.push_back({it.origin, it.seq});
    auto all_ids = comm.allgatherv(ids);
    auto counts = comm.allgather<u64>(mine.size());
    std::sort(all_ids.begin(), all_ids.end());
    std::vector<item_id> expect;
    for (std::size_t r = 0; r < counts.size(); ++r)
        for (u64 i = 0; i < counts[r]; ++i) expect.push_back({r, i});
    CHECK(all_ids == expect);
    auto stats = x.stats();
    CHECK(stats.items_sent == mine.size());
    CHECK(stats.items_received == got.size());
    // The process counters: only what left this rank, each message with its header.
    u64 to_others = 0;
    for (const auto& it : mine) to_others += rank_of(it) != comm.rank();
    CHECK(used.exchange_items_sent == to_others);
    const u64 finals = u64(comm.size() - 1),
              per_message = std::max<u64>(1, opt.message_bytes / sizeof(item<W>));
    CHECK(used.exchange_bytes_sent ==
          to_others * sizeof(item<W>) +
              (used.exchange_messages_sent + finals) * mpi::exchange_channel::header_bytes);
    CHECK(used.exchange_messages_sent >= (to_others + per_message - 1) / per_message);
    return got;
}

auto by_key(int p) {
    return [p](const auto& it) { return int(it.key % u64(p)); };
}

}  // namespace

TEST_CASE("exchange: random routing delivers every item exactly once", "[exchange]") {
    emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    int p = world().size();
    SECTION("default messages") {
        exchange_and_check(make_items<4>(100000 + rng() % 1000, rng), by_key(p));
    }
    SECTION("a few items per message, minimal buffers") {
        mpi::exchange_options opt;
        opt.message_bytes = 3 * 32 + 5;
        opt.send_buffers_per_peer = 2;
        opt.receive_buffers_per_peer = 1;
        exchange_and_check(make_items<4>(20000 + rng() % 100, rng), by_key(p), opt);
    }
    SECTION("items larger than a message: one item per message") {
        mpi::exchange_options opt;
        opt.message_bytes = 1000;
        exchange_and_check(make_items<200>(3000 + rng() % 100, rng), by_key(p), opt);
    }
}

TEST_CASE("exchange: everything to one rank, and empty ranks", "[exchange]") {
    emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    int p = world().size();
    SECTION("all items to the last rank") {
        auto got =
            exchange_and_check(make_items<3>(50000, rng), [p](const auto&) { return p - 1; });
        CHECK(got.size() == (world().rank() == p - 1 ? std::size_t(50000) * std::size_t(p) : 0));
    }
    SECTION("rank 0 sends nothing") {
        std::size_t n = world().rank() == 0 ? 0 : 30000;
        exchange_and_check(make_items<3>(n, rng), by_key(p));
    }
    SECTION("nobody sends anything") {
        auto got = exchange_and_check(make_items<3>(0, rng), by_key(p));
        CHECK(got.empty());
    }
}

TEST_CASE("exchange: a slow consumer makes senders wait, nothing is lost", "[exchange]") {
    emflow_mpi_test::configure_rank_disks();
    std::mt19937_64 rng(emflow_mpi_test::rank_seed(world()));
    const auto& comm = world();
    mpi::exchange_options opt;
    opt.message_bytes = 64 * 24;  // 64 items
    opt.send_buffers_per_peer = 2;
    opt.receive_buffers_per_peer = 1;
    auto mine = make_items<3>(20000, rng);
    mpi::exchange<item<3>> x(comm, opt);
    u64 received = 0;
    // Rank 0 receives everything and reads slowly: senders must wait for it.
    auto slow =
        mpi::route(streamify(mine), x, [](const auto&) { return 0; }) | tap([&](const item<3>&) {
            if (++received % 2000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        });
    materialize(slow, count_sink<item<3>>());
    u64 total = comm.allreduce_sum(received);
    CHECK(total == 20000u * u64(comm.size()));
    // Everyone's sends had to wait for rank 0 at some point.
    CHECK(x.stats().send_wait_seconds > 0);
    CHECK(x.stats().items_sent == 20000u);
}
