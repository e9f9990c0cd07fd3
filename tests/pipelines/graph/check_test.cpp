// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/check_test.cpp: the external checker accepts the searches' distances
// and rejects a distance array with one entry changed.
#include <emflow/pipelines/graph/check.hpp>
#include <emflow/pipelines/graph/distances.hpp>
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <catch2/catch.hpp>

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
