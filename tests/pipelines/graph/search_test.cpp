// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/search_test.cpp: SSSP (every Δ mode), BFS and A* against Dijkstra on
// generated and hand-written graphs, with budgets that spill the queue to disk.
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/import.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>

#include "reference.hpp"
#include "test_env.hpp"

using namespace emflow::pipelines::graph;

namespace {

std::string path_of(const std::string& name) {
    return (emflow_test::configure_test_disks().path() / name).string();
}

search_options small_budget(int log_delta) {
    search_options o;
    o.memory_bytes = std::uint64_t(24) << 20;
    o.threads = 2;
    o.log_delta = log_delta;
    return o;
}

//! The bytes of the graph file's edge sections (what a search holding them in RAM reads).
std::uint64_t csr_image_bytes(const std::string& g) {
    return read_header(g).coordinates_at() - 128;
}

//! A uniform random graph of 200000 vertices and 800000 edges written to file name, in RAM, with
//! the vertex of most out-edges as the source (vertex 0 has no out-edge in about 2% of seeds at
//! mean out-degree 4) and Dijkstra's distances from it, which reach most of the graph.
struct uniform_case {
    graph_test::ram_graph g;
    std::uint32_t source = 0;
    std::vector<std::uint64_t> expect;
};

uniform_case make_uniform_case(const std::string& name) {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_uniform(path_of(name), 200000, 800000, o);
    uniform_case c{graph_test::load(path_of(name)), 0, {}};
    c.source = graph_test::widest_vertex(c.g);
    c.expect = graph_test::dijkstra(c.g, c.source);
    REQUIRE(std::count(c.expect.begin(), c.expect.end(), unreached) < 200000 / 2);
    return c;
}

//! SSSP from the vertex with the most out-edges (a random vertex may have none) with the
//! adaptive Δ and several fixed ones equals Dijkstra.
void check_sssp(const std::string& g) {
    const graph_test::ram_graph ram = graph_test::load(g);
    const std::uint32_t s = graph_test::widest_vertex(ram);
    const auto expect = graph_test::dijkstra(ram, s);
    for (int k : {-1, 0, 3, 10, 30}) {
        INFO("log_delta " << k);
        search_options o = small_budget(k);
        std::vector<std::uint64_t> queue_sizes;  // as reported after each round
        o.on_round = [&](const search_stats& st) { queue_sizes.push_back(st.queue_size); };
        search_result r = sssp(g, s, o);
        CHECK(r.distance == expect);
        REQUIRE(queue_sizes.size() == r.stats.rounds);
        CHECK(queue_sizes.back() == 0);  // SSSP empties the queue
        // A later round's items came through the queue (one round: all before its limit, in RAM)
        if (r.stats.rounds > 1)
            CHECK(*std::max_element(queue_sizes.begin(), queue_sizes.end()) > 0);
        CHECK(r.stats.reached ==
              std::size_t(std::count_if(expect.begin(), expect.end(),
                                        [](std::uint64_t d) { return d != unreached; })));
    }
}

//! The parents of r (from s) name a tight in-edge of every reached v != s, none for s and the
//! unreached, and lead back to s (a tree). unit: hop counts.
void check_parents(const graph_test::ram_graph& g, const search_result& r, std::uint32_t s,
                   bool unit = false) {
    REQUIRE(r.parent.size() == g.h.vertices);
    CHECK(r.parent[s] == no_parent);
    for (std::uint32_t v = 0; v < g.h.vertices; ++v) {
        if (v == s) continue;
        const std::uint32_t p = r.parent[v];
        if (r.distance[v] == unreached) {
            CHECK(p == no_parent);
            continue;
        }
        INFO("vertex " << v << " parent " << p);
        REQUIRE(p < g.h.vertices);
        bool tight = false;
        for (std::uint64_t k = g.offsets[p]; k < g.offsets[p + 1]; ++k)
            tight |=
                g.targets[k] == v && r.distance[p] + (unit ? 1 : g.weights[k]) == r.distance[v];
        CHECK(tight);
        std::uint64_t steps = 0;
        for (std::uint32_t u = v; u != s && steps <= g.h.vertices; u = r.parent[u]) ++steps;
        CHECK(steps <= g.h.vertices);
    }
}

}  // namespace

TEST_CASE("SSSP equals Dijkstra on kron, uniform and road-like graphs in every Δ mode", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_kron(path_of("k.emg"), 11, 8, o);
    check_sssp(path_of("k.emg"));
    o.weight_divisor = 64;  // many zero weights
    generate_uniform(path_of("u.emg"), 3000, 12000, o);
    check_sssp(path_of("u.emg"));
    o.weight_divisor = 1;
    generate_road(path_of("r.emg"), 4000, o);
    check_sssp(path_of("r.emg"));
}

TEST_CASE("SSSP on zero weights, parallel edges, self loops, unreachable and single vertices",
          "[graph]") {
    {
        std::ofstream(path_of("z.gr")) << "p sp 6 8\na 1 2 0\na 2 3 0\na 1 3 5\na 1 3 1\n"
                                          "a 3 3 4\na 3 4 2\na 4 1 0\na 6 5 1\n";
    }
    import_dimacs(path_of("z.gr"), "", path_of("z.emg"));
    search_result r = sssp(path_of("z.emg"), 0, small_budget(-1));
    CHECK(r.distance == std::vector<std::uint64_t>{0, 0, 0, 2, unreached, unreached});
    { std::ofstream(path_of("one.txt")) << "# nothing but a loop\n0 0 3\n"; }
    import_snap(path_of("one.txt"), path_of("one.emg"));
    CHECK(sssp(path_of("one.emg"), 0, small_budget(-1)).distance == std::vector<std::uint64_t>{0});
    CHECK_THROWS_WITH(sssp(path_of("one.emg"), 1, small_budget(-1)),
                      Catch::Contains("source vertex 1 out of range"));
}

TEST_CASE("a queue spilling to disk gives the same distances", "[graph]") {
    const uniform_case c = make_uniform_case("big.emg");
    search_options s = small_budget(0);  // Δ = 1: every relaxation goes into the queue
    s.memory_bytes = std::uint64_t(14) << 20;
    search_result r = sssp(path_of("big.emg"), c.source, s);
    CHECK(r.distance == c.expect);
    CHECK(r.stats.queue_bytes_io > 0);
    CHECK(r.stats.bytes_read > 0);  // through the windows: the edges do not fit the budget
}

TEST_CASE(
    "relaxations before the round's limit stay in RAM, also from both threads and when "
    "the frontiers overflow into the queue",
    "[graph]") {
    const uniform_case c = make_uniform_case("light.emg");
    // Δ = 2^30 holds every distance: one round of phases (thousands of vertices each, relaxed
    // by both threads); the frontiers of a 256 MiB budget hold more items than there are edges.
    search_options ram = small_budget(30);
    ram.memory_bytes = std::uint64_t(256) << 20;
    ram.parents = true;
    const search_result r = sssp(path_of("light.emg"), c.source, ram);
    CHECK(r.distance == c.expect);
    CHECK(r.stats.rounds == 1);  // every vertex expanded from the frontiers of the first round
    check_parents(c.g, r, c.source);
    // 14 MiB: edges through windows (phases sorted by vertex), frontiers of 2^15 items a thread,
    // the rest pushed into the queue and expanded in later rounds
    search_options small = small_budget(30);
    small.memory_bytes = std::uint64_t(14) << 20;
    small.parents = true;
    const search_result w = sssp(path_of("light.emg"), c.source, small);
    CHECK(w.distance == c.expect);
    CHECK(w.stats.rounds > 1);  // every item is before the limit: only an overflow is queued
    check_parents(c.g, w, c.source);
}

TEST_CASE("parents form a shortest-path tree in SSSP, BFS and A-star", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    o.weight_divisor = 32;  // zero weights: zero-weight cycles must not make parent cycles
    generate_kron(path_of("pk.emg"), 11, 8, o);
    const graph_test::ram_graph k = graph_test::load(path_of("pk.emg"));
    const std::uint32_t src = graph_test::widest_vertex(k);  // kron has isolated vertices
    for (int d : {-1, 0, 6}) {
        INFO("log_delta " << d);
        search_options so = small_budget(d);
        so.parents = true;
        const search_result r = sssp(path_of("pk.emg"), src, so);
        CHECK(r.distance == graph_test::dijkstra(k, src));
        REQUIRE(r.stats.reached > 100);
        check_parents(k, r, src);
        // the budget holds the edges: read once
        CHECK(r.stats.bytes_read == read_header(path_of("pk.emg")).coordinates_at() - 128);
    }
    search_options so = small_budget(-1);
    so.parents = true;
    check_parents(k, bfs(path_of("pk.emg"), src, so), src, true);
    CHECK(sssp(path_of("pk.emg"), src, small_budget(-1)).parent.empty());
    o.weight_divisor = 1;
    generate_road(path_of("pr.emg"), 3000, o);
    const graph_test::ram_graph rg = graph_test::load(path_of("pr.emg"));
    const search_result a = astar(path_of("pr.emg"), 0, 2999, so);
    const std::uint64_t expect = graph_test::dijkstra(rg, 0)[2999];
    CHECK(a.distance[2999] == expect);
    if (expect == unreached) {  // a road graph need not be connected
        CHECK(a.parent[2999] == no_parent);
        return;
    }
    for (std::uint32_t v = 2999; v != 0; v = a.parent[v]) {  // the path to the target is exact
        REQUIRE(a.parent[v] != no_parent);
        CHECK(a.distance[v] >= a.distance[a.parent[v]]);
    }
}

TEST_CASE("BFS equals hop distances, and A-star finds road distances settling fewer vertices",
          "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_kron(path_of("k.emg"), 10, 4, o);
    const graph_test::ram_graph kg = graph_test::load(path_of("k.emg"));
    const std::uint32_t src = graph_test::widest_vertex(kg);  // kron has isolated vertices
    const search_result b = bfs(path_of("k.emg"), src, small_budget(-1));
    CHECK(b.distance == graph_test::dijkstra(kg, src, true));
    CHECK(b.stats.reached > 100);
    generate_road(path_of("r.emg"), 10000, o);
    const auto expect = graph_test::dijkstra(graph_test::load(path_of("r.emg")), 0);
    const search_result full = sssp(path_of("r.emg"), 0, small_budget(0));
    std::mt19937_64 rng(o.seed);
    for (int q = 0; q < 5; ++q) {
        const std::uint32_t t = std::uint32_t(rng() % 10000);
        for (int k : {-1, 0, 8}) {
            search_result r = astar(path_of("r.emg"), 0, t, small_budget(k));
            CHECK(r.distance[t] == expect[t]);
            if (k == 0) CHECK(r.stats.expanded <= full.stats.expanded);
        }
    }
    // A file written before the header held the scale: A* scans for the same one.
    const double stored =
        detail::euclidean_heuristic(path_of("r.emg"), read_header(path_of("r.emg")), 0).scale();
    graph_header old = read_header(path_of("r.emg"));
    old.flags &= ~std::uint32_t(flag_astar_scale);
    old.astar_scale = 0;
    std::fstream(path_of("r.emg"), std::ios::in | std::ios::out | std::ios::binary)
        .write(reinterpret_cast<const char*>(&old), sizeof old);
    CHECK(detail::euclidean_heuristic(path_of("r.emg"), read_header(path_of("r.emg")), 0).scale() ==
          stored);
    const std::uint32_t t = std::uint32_t(rng() % 10000);
    CHECK(astar(path_of("r.emg"), 0, t, small_budget(-1)).distance[t] == expect[t]);
    CHECK_THROWS_WITH(astar(path_of("k.emg"), 0, 1, small_budget(-1)),
                      Catch::Contains("A* needs coordinates"));
}

TEST_CASE("A-star's adaptive Δ merges as far as max_useless_astar lets it", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_road(path_of("ru.emg"), 40000, o);
    // A long query: from a vertex of the main component (some seeds cut a corner off) to the
    // farthest one it reaches.
    const graph_test::ram_graph g = graph_test::load(path_of("ru.emg"));
    std::uint32_t src = 0;
    std::vector<std::uint64_t> expect;
    for (std::uint32_t s : {0u, 20100u, 10050u, 30150u}) {
        expect = graph_test::dijkstra(g, src = s);
        if (std::count(expect.begin(), expect.end(), unreached) < 20000) break;
    }
    REQUIRE(std::count(expect.begin(), expect.end(), unreached) < 20000);
    std::uint32_t far = src;
    for (std::uint32_t v = 0; v < expect.size(); ++v)
        if (expect[v] != unreached && expect[v] > expect[far]) far = v;
    auto final_lmf = [&](double max_useless_astar) {
        search_options so = small_budget(-1);
        so.threads = 1;               // the same rounds every run
        so.adaptive.max_useless = 1;  // A* must not read it
        so.adaptive.max_useless_astar = max_useless_astar;
        const search_result r = astar(path_of("ru.emg"), src, far, so);
        CHECK(r.distance[far] == expect[far]);
        return r.stats.log_delta;
    };
    // No waste tolerated: merges stop once the waste is judged; all tolerated: they go on.
    CHECK(final_lmf(0) < final_lmf(1));
}

TEST_CASE("A-star's heuristic table is the same streamed or scanned, and a lower bound",
          "[graph]") {
    // More vertices than one window of coordinates (64 Ki): the streamed table crosses windows.
    generate_options o;
    o.seed = emflow_test::test_seed();
    const std::uint32_t n = 150000;
    generate_road(path_of("big.emg"), n, o);
    const std::uint32_t t = std::uint32_t(o.seed % n);
    const graph_header h = read_header(path_of("big.emg"));
    REQUIRE(h.has_astar_scale());
    const detail::euclidean_heuristic streamed(path_of("big.emg"), h, t);
    graph_header old = h;  // as written before the header held the scale: read whole, scanned
    old.flags &= ~std::uint32_t(flag_astar_scale);
    old.astar_scale = 0;
    const detail::euclidean_heuristic scanned(path_of("big.emg"), old, t);
    // road edges go both ways with one weight: d(v, t) = d(t, v)
    const auto to_t = graph_test::dijkstra(graph_test::load(path_of("big.emg")), t);
    std::uint32_t differ = 0, over = 0, positive = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
        differ += streamed(v) != scanned(v);
        over += to_t[v] != unreached && streamed(v) > to_t[v];
        positive += streamed(v) > 0;
    }
    CHECK(differ == 0);
    CHECK(over == 0);
    CHECK(streamed(t) == 0);
    CHECK(positive > n / 2);  // a table of zeros would pass the bound
}

TEST_CASE("BFS by levels (edges in RAM or through windows) and on the queue agree", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_uniform(path_of("b.emg"), 1 << 19, 1 << 20, o);  // 12 MiB of edges
    const graph_test::ram_graph g = graph_test::load(path_of("b.emg"));
    const auto expect = graph_test::dijkstra(g, 0, true);
    // The vertex arrays take 14.5 MiB (16.5 with parents), two frontiers 4 MiB more.
    search_options queue = small_budget(-1), windows = queue, ram = queue;
    queue.memory_bytes = std::uint64_t(16) << 20;
    windows.memory_bytes = std::uint64_t(22) << 20;
    windows.parents = true;
    ram.memory_bytes = std::uint64_t(128) << 20;
    const search_result q = bfs(path_of("b.emg"), 0, queue), w = bfs(path_of("b.emg"), 0, windows),
                        r = bfs(path_of("b.emg"), 0, ram);
    CHECK(q.distance == expect);
    CHECK(q.stats.queue_peak_bytes > 0);  // the queue's machinery
    CHECK(w.distance == expect);
    CHECK(w.stats.queue_peak_bytes == 0);
    CHECK(w.stats.bytes_read != csr_image_bytes(path_of("b.emg")));  // through windows
    check_parents(g, w, 0, true);
    CHECK(r.distance == expect);
    CHECK(r.stats.bytes_read == csr_image_bytes(path_of("b.emg")));  // read once
    // One round per level (the queue's rounds may split a level its bulk cannot hold).
    std::uint64_t levels = 0;
    for (const std::uint64_t d : expect) levels = d == unreached ? levels : std::max(levels, d + 1);
    CHECK(r.stats.rounds == levels);
    CHECK(w.stats.rounds == levels);
    CHECK(q.stats.rounds >= levels);
}

TEST_CASE("a budget that cannot hold the vertex arrays is refused naming the need", "[graph]") {
    generate_uniform(path_of("u.emg"), 3000000, 10, {});
    search_options s = small_budget(-1);
    CHECK_THROWS_WITH(sssp(path_of("u.emg"), 0, s),
                      Catch::Contains("needs a memory budget of at least 36 MiB"));
}
