// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/check_test.cpp: the external checker accepts the searches' distances
// and parents, and rejects a distance or parent array with one entry changed.
#include <emflow/pipelines/graph/check.hpp>
#include <emflow/pipelines/graph/distances.hpp>
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "reference.hpp"
#include "test_env.hpp"

using namespace emflow::pipelines::graph;

namespace {
std::string path_of(const std::string& name) {
    return (emflow_test::configure_test_disks().path() / name).string();
}
}  // namespace

TEST_CASE("the checker accepts shortest distances and rejects one changed entry", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    o.weight_divisor = 16;                              // zero weights too
    generate_uniform(path_of("u.emg"), 5000, 9000, o);  // sparse: some vertices unreachable
    const std::string g = path_of("u.emg"), d = path_of("u.dist");
    const graph_test::ram_graph rg = graph_test::load(g);
    std::uint32_t s = 0;  // the vertex of most out-edges: in the giant component
    for (std::uint32_t v = 0; v < 5000; ++v)
        if (rg.offsets[v + 1] - rg.offsets[v] > rg.offsets[s + 1] - rg.offsets[s]) s = v;
    const auto good = graph_test::dijkstra(rg, s);
    write_distances(d, good);
    CHECK(check_distances(g, d, s).ok);
    CHECK(!check_distances(g, d, s == 0 ? 1 : 0).ok);
    std::mt19937_64 rng(o.seed);
    std::uint32_t reached = 0, lost = 0;
    while (good[reached = std::uint32_t(rng() % 5000)] == unreached || good[reached] == 0) {
    }
    while (good[lost = std::uint32_t(rng() % 5000)] != unreached) {
    }
    // A changed entry may show first at another vertex (a lowered d(v) breaks d(w) <= d(v) +
    // w(v, w) at v's successors), so the reason is only required to name a vertex.
    struct change {
        std::uint32_t v;
        std::uint64_t to;
    };
    for (const change& c : {change{reached, good[reached] + 1}, change{reached, good[reached] - 1},
                            change{reached, unreached}, change{lost, 12345}, change{s, 1}}) {
        auto bad = good;
        bad[c.v] = c.to;
        write_distances(d, bad);
        check_result r = check_distances(g, d, s);
        CHECK(!r.ok);
        CHECK_THAT(r.reason, Catch::Contains("vertex "));
    }
    write_distances(d, std::vector<std::uint64_t>(4999, 0));
    CHECK_THAT(check_distances(g, d, s).reason, Catch::Contains("expected 40000"));
}

TEST_CASE("the checker accepts the searches' parents and rejects one changed parent", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    o.weight_divisor = 16;  // zero weights: ties between parents
    generate_uniform(path_of("p.emg"), 4000, 9000, o);
    const std::string g = path_of("p.emg"), d = path_of("p.dist"), p = path_of("p.par");
    const graph_test::ram_graph ram = graph_test::load(g);
    const std::uint32_t s = graph_test::widest_vertex(ram);
    search_options so;
    so.memory_bytes = std::uint64_t(24) << 20;
    so.threads = 2;
    so.parents = true;
    const search_result r = sssp(g, s, so);
    write_distances(d, r.distance);
    write_parents(p, r.parent);
    CHECK(check_distances(g, d, s, false, 8 << 20, p).ok);
    const std::vector<std::uint64_t> good = read_distances(p);
    const auto reached_vertex = [&](std::uint32_t v) { return r.distance[v] != unreached; };
    std::vector<std::uint32_t> reached, lost;
    for (std::uint32_t v = 0; v < ram.h.vertices; ++v)
        (reached_vertex(v) ? reached : lost).push_back(v);
    REQUIRE(reached.size() > 2);
    REQUIRE(!lost.empty());  // mean out-degree 2.25: some vertices have no in-edge
    const std::uint32_t child = reached[0] == s ? reached[1] : reached[0];
    // a reached vertex that is not the tail of a tight in-edge of child
    const auto wrong = std::find_if(reached.begin(), reached.end(), [&](std::uint32_t u) {
        return u != child && !graph_test::tight_edge(ram, r.distance, u, child);
    });
    REQUIRE(wrong != reached.end());
    struct change {
        std::uint32_t v;
        std::uint64_t to;
        const char* says;
    };
    for (const change& c :
         {change{child, no_parent_u64, "no parent given"},
          change{child, *wrong, "not the tail of a tight in-edge"},
          change{lost[0], child, "an unreached vertex"}, change{s, child, "the source"}}) {
        INFO(c.says);
        auto bad = good;
        bad[c.v] = c.to;
        write_distances(p, bad);  // the same format
        check_result cr = check_distances(g, d, s, false, 8 << 20, p);
        CHECK(!cr.ok);
        CHECK_THAT(cr.reason, Catch::Contains(c.says));
    }
}
