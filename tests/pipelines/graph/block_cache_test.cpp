// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/block_cache_test.cpp: the windows' block cache and its switch: blocks
// come back as put in, a road-like wavefront's re-read pages come from RAM, sparse random reads
// switch the cache off, and SSSP with edges beyond the budget (read through it) equals Dijkstra.
#include <emflow/pipelines/graph/detail/block_cache.hpp>
#include <emflow/pipelines/graph/detail/csr_reader.hpp>
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cache_blocks.hpp"
#include "reference.hpp"
#include "test_env.hpp"

using namespace emflow::pipelines::graph;
using detail::block_cache;
using graph_test::block_of;

namespace {

std::string path_of(const std::string& name) {
    return (emflow_test::configure_test_disks().path() / name).string();
}

//! count rounds of 200 sorted vertices drawn from a quarter of the ids that moves slowly through
//! them, as a road graph's wavefront does (anywhere: from all ids).
std::vector<std::vector<std::uint32_t>> rounds_of(std::uint32_t n, std::uint32_t count,
                                                  bool anywhere) {
    std::mt19937_64 rng(emflow_test::test_seed());
    std::vector<std::vector<std::uint32_t>> rounds;
    const std::uint32_t span = anywhere ? n : n / 4, step = (n - n / 4) / count;
    for (std::uint32_t r = 0; r < count; ++r) {
        const std::uint32_t lo = anywhere ? 0 : r * step;
        std::vector<std::uint32_t> bulk(200);
        for (auto& v : bulk) v = lo + std::uint32_t(rng() % span);
        std::sort(bulk.begin(), bulk.end());
        rounds.push_back(bulk);
    }
    return rounds;
}

struct replayed {
    std::uint64_t bytes_read;
    detail::cache_counts use;
};

//! Reads rounds through a reader with cache (or none), checks every adjacency against the
//! graph in RAM.
replayed replay(const std::string& path, const graph_test::ram_graph& g,
                const std::vector<std::vector<std::uint32_t>>& rounds, block_cache* cache) {
    detail::posix_file f(path, detail::posix_file::read_only);
    detail::csr_reader reader(f, g.h, std::size_t(256) << 10, cache);
    for (const auto& bulk : rounds)
        for (const std::uint32_t v : bulk) {
            const detail::adjacency a = reader.edges(v);
            const std::uint64_t b = g.offsets[v];
            REQUIRE(a.size == g.offsets[v + 1] - b);
            REQUIRE(std::equal(a.targets, a.targets + a.size, g.targets.begin() + b));
            REQUIRE(std::equal(a.weights, a.weights + a.size, g.weights.begin() + b));
        }
    return {reader.bytes_read(), reader.cache_use()};
}

}  // namespace

TEST_CASE("the block cache returns blocks as put in, or says it lost them", "[graph]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (const std::size_t blocks : {std::size_t(1), std::size_t(5), std::size_t(256)}) {
        INFO(blocks);
        block_cache cache(blocks);
        CHECK(cache.capacity() >= 1);
        CHECK(cache.capacity() <= blocks);
        std::vector<char> out(2 * block_cache::block_bytes);
        std::size_t held = 0;
        for (int i = 0; i < 2000; ++i) {
            const std::uint64_t index = rng() % 1024;
            std::vector<char> two = block_of(index), next = block_of(index + 1);
            two.insert(two.end(), next.begin(), next.end());
            const std::size_t at = std::size_t(rng() % block_cache::block_bytes);
            if (cache.read(index * block_cache::block_bytes + at, block_cache::block_bytes,
                           out.data())) {  // the end of one block, the start of the next
                ++held;
                REQUIRE(std::equal(out.begin(), out.begin() + block_cache::block_bytes,
                                   two.begin() + at));
            } else {
                cache.insert(index, 1, two.data());
                // Just put in: its set holds it.
                REQUIRE(cache.read(index * block_cache::block_bytes, block_cache::block_bytes,
                                   out.data()));
                REQUIRE(
                    std::equal(out.begin(), out.begin() + block_cache::block_bytes, two.begin()));
                cache.insert(index + 1, 1, next.data());
            }
        }
        if (blocks == 256) CHECK(held > 0);
    }
    // A working set of a quarter of the capacity, read round after round, stays.
    block_cache cache(1024);
    std::vector<std::uint64_t> hot(256);
    for (auto& index : hot) index = rng() % (std::uint64_t(1) << 40);  // offsets: index * 512
    std::vector<char> out(block_cache::block_bytes);
    std::size_t hits = 0;
    for (int round = 0; round < 4; ++round)
        for (const std::uint64_t index : hot) {
            if (round > 0 && cache.read(index * block_cache::block_bytes, 8, out.data()))
                ++hits;
            else
                cache.insert(index, 1, block_of(index).data());
        }
    CHECK(hits > 3 * hot.size() * 9 / 10);
}

TEST_CASE(
    "windows read a slow wavefront's pages from the cache and switch it off for random "
    "sparse reads",
    "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_road(path_of("w.emg"), 100000, o);
    const graph_test::ram_graph g = graph_test::load(path_of("w.emg"));
    const std::uint32_t n = std::uint32_t(g.h.vertices);
    // The wavefront: the cache serves most refills and is never switched off for long.
    const auto wave = rounds_of(n, 150, false);
    block_cache big(8192), unit(1);
    const replayed plain = replay(path_of("w.emg"), g, wave, nullptr),
                   cached = replay(path_of("w.emg"), g, wave, &big),
                   one = replay(path_of("w.emg"), g, wave, &unit);
    CHECK(plain.use.lookups == 0);
    CHECK(cached.bytes_read * 4 < plain.bytes_read);
    CHECK(cached.use.hits * 2 > cached.use.lookups);
    CHECK(cached.use.bypassed < cached.use.lookups);
    // Bulks drawn from all vertices with a cache of 16 blocks: it would hit seldom, and is
    // off for most refills (each probe looks up 512 blocks, then pauses for 1024, 2048, ...).
    block_cache small(16);
    const replayed sparse = replay(path_of("w.emg"), g, rounds_of(n, 300, true), &small);
    CHECK(sparse.use.bypassed > 2 * sparse.use.lookups);
    CHECK(one.use.bypassed > 0);  // one block: off as well, and still correct
}

TEST_CASE("SSSP with the edges beyond the budget equals Dijkstra through the cache", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_road(path_of("r.emg"), 200000, o);  // ~7 MiB of edges
    generate_kron(path_of("k.emg"), 16, 8, o);   // ~4.5 MiB of edges
    for (const char* name : {"r.emg", "k.emg"}) {
        INFO(name);
        const graph_test::ram_graph g = graph_test::load(path_of(name));
        const std::uint32_t s = graph_test::widest_vertex(g);
        search_options opt;
        opt.threads = 2;
        // The vertex arrays and the minimal queue, plus a MiB: the rest (9 MiB) halves to less
        // than the edges, which are then read through windows and the cache.
        opt.memory_bytes = search_memory_needed(g.h, false, 2) + (std::uint64_t(1) << 20);
        const search_result r = sssp(path_of(name), s, opt);
        CHECK(r.distance == graph_test::dijkstra(g, s));
        const std::uint64_t edge_bytes = g.h.coordinates_at() - g.h.offsets_at();
        CHECK(r.stats.bytes_read != edge_bytes);  // not mapped
    }
}
