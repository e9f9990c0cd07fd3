// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/bfs_levels_test.cpp: BFS by levels (detail/bfs_levels.hpp) at the edges
// of search.hpp's choice: the least budget that holds the two frontiers (edges read through
// windows, by one thread and by a team), the most that still reads through windows, the least
// that maps the edges, one byte too few for the frontiers (the queue's BFS); against the
// in-memory BFS from the vertex with the most out-edges. And budgets below the vertex arrays.
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/search.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "reference.hpp"
#include "test_env.hpp"

using namespace emflow::pipelines::graph;

namespace {

std::string path_of(const std::string& name) {
    return (emflow_test::configure_test_disks().path() / name).string();
}

//! Which way bfs() goes for a budget (search.hpp).
enum class bfs_mode { queue, windows, mapped };

//! The mode search.hpp's rules give: the frontiers need the vertex arrays plus 8 bytes per
//! vertex; the edges are mapped if they fit the rest and the queue's unused minimum.
bfs_mode mode_of(const graph_header& h, const search_options& o) {
    if (!detail::bfs_levels::fits(h, o, o.threads)) return bfs_mode::queue;
    const std::uint64_t rest = o.memory_bytes -
                               search_memory_needed(h, false, o.threads, o.parents) -
                               detail::bfs_levels::frontier_bytes(h) + (std::uint64_t(8) << 20);
    return detail::csr_image::bytes_of(h) <= rest ? bfs_mode::mapped : bfs_mode::windows;
}

//! The least budget for BFS by levels.
std::uint64_t levels_budget(const graph_header& h, unsigned threads, bool parents) {
    return search_memory_needed(h, false, threads, parents) + detail::bfs_levels::frontier_bytes(h);
}

struct bfs_run {
    search_result r;
    std::uint64_t largest_level = 0;  //!< the largest frontier reported after a round
};

bfs_run run_bfs(const std::string& g, std::uint32_t s, search_options o) {
    bfs_run out;
    o.on_round = [&](const search_stats& st) {
        out.largest_level = std::max(out.largest_level, st.queue_size);
    };
    out.r = bfs(g, s, o);
    return out;
}

//! Whether u -> v is an edge with d(v) = d(u) + 1.
bool hop_edge(const graph_test::ram_graph& g, const std::vector<std::uint64_t>& d, std::uint32_t u,
              std::uint32_t v) {
    if (u >= g.h.vertices || d[u] == unreached || d[u] + 1 != d[v]) return false;
    for (std::uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        if (g.targets[k] == v) return true;
    return false;
}

//! Checks a BFS result: the reference's distances, the mode's traces, the parents (if any) a
//! tree of tight edges.
void check_bfs(const graph_test::ram_graph& g, std::uint32_t s,
               const std::vector<std::uint64_t>& expect, const bfs_run& run, bfs_mode mode) {
    const search_result& r = run.r;
    CHECK(r.distance == expect);
    CHECK(r.stats.reached ==
          std::uint64_t(std::count_if(expect.begin(), expect.end(),
                                      [](std::uint64_t d) { return d != unreached; })));
    const std::uint64_t image = detail::csr_image::bytes_of(g.h);
    if (mode == bfs_mode::queue) {
        CHECK(r.stats.queue_peak_bytes > 0);
    } else {
        CHECK(r.stats.queue_peak_bytes == 0);  // no queue
        std::uint64_t levels = 0;
        for (const std::uint64_t d : expect)
            levels = d == unreached ? levels : std::max(levels, d + 1);
        CHECK(r.stats.rounds == levels);  // one round per level
        if (mode == bfs_mode::mapped)
            CHECK(r.stats.bytes_read == image);  // mapped once
        else
            CHECK((r.stats.bytes_read > 0 && r.stats.bytes_read != image));
    }
    if (r.parent.empty()) return;
    REQUIRE(r.parent.size() == g.h.vertices);
    CHECK(r.parent[s] == no_parent);
    bool tight = true;
    for (std::uint32_t v = 0; v < g.h.vertices && tight; ++v)
        if (v != s)
            tight = expect[v] == unreached ? r.parent[v] == no_parent
                                           : hop_edge(g, expect, r.parent[v], v);
    CHECK(tight);
}

}  // namespace

TEST_CASE("BFS by levels at the edges of the budget's choice between windows, map and queue",
          "[graph][bfs]") {
    generate_options go;
    go.seed = emflow_test::test_seed();
    const std::string g = path_of("u.emg");
    generate_uniform(g, 1 << 18, 1 << 20, go);  // 10 MiB of edges (with weights)
    const graph_test::ram_graph ram = graph_test::load(g);
    const std::uint32_t s = graph_test::widest_vertex(ram);
    const auto expect = graph_test::dijkstra(ram, s, true);  // hop counts
    REQUIRE(std::count(expect.begin(), expect.end(), unreached) < (1 << 18) / 4);
    const std::uint64_t image = detail::csr_image::bytes_of(ram.h);
    REQUIRE(image > (std::uint64_t(9) << 20));  // windows lie between the frontiers and the map
    struct budget_case {
        unsigned threads;
        bool parents;
        std::int64_t above_least;  // bytes beyond levels_budget()
        bfs_mode mode;
    };
    const std::int64_t span = std::int64_t(image) - (std::int64_t(8) << 20);  // windows' range
    for (const budget_case c :
         {budget_case{2, false, 0, bfs_mode::windows}, budget_case{1, false, 0, bfs_mode::windows},
          budget_case{2, true, 0, bfs_mode::windows},
          budget_case{2, false, span - 1, bfs_mode::windows},
          budget_case{2, false, span, bfs_mode::mapped},
          budget_case{2, false, -1, bfs_mode::queue}}) {
        search_options o;
        o.threads = c.threads;
        o.parents = c.parents;
        o.memory_bytes =
            std::uint64_t(std::int64_t(levels_budget(ram.h, c.threads, c.parents)) + c.above_least);
        INFO(c.threads << " threads, parents " << c.parents << ", budget " << o.memory_bytes);
        REQUIRE(mode_of(ram.h, o) == c.mode);
        const bfs_run run = run_bfs(g, s, o);
        check_bfs(ram, s, expect, run, c.mode);
        // Levels of 8192 and more are expanded by the team (a thread and a window each).
        CHECK(run.largest_level >= 8192);
    }
}

TEST_CASE("BFS by levels through windows on a road-like graph: many small sorted levels",
          "[graph][bfs]") {
    generate_options go;
    go.seed = emflow_test::test_seed();
    const std::string g = path_of("r.emg");
    generate_road(g, 400000, go);
    const graph_test::ram_graph ram = graph_test::load(g);
    const std::uint32_t s = graph_test::widest_vertex(ram);
    const auto expect = graph_test::dijkstra(ram, s, true);
    REQUIRE(std::count(expect.begin(), expect.end(), unreached) < 400000 / 2);
    search_options o;
    o.threads = 2;
    o.parents = true;
    o.memory_bytes = levels_budget(ram.h, 2, true);
    REQUIRE(mode_of(ram.h, o) == bfs_mode::windows);
    const bfs_run run = run_bfs(g, s, o);
    check_bfs(ram, s, expect, run, bfs_mode::windows);
    CHECK(run.r.stats.rounds > 100);
}

TEST_CASE("BFS refuses a budget below the vertex arrays and a source out of range",
          "[graph][bfs][errors]") {
    generate_options go;
    go.seed = emflow_test::test_seed();
    const std::string g = path_of("e.emg");
    const graph_header h = generate_uniform(g, 1000, 4000, go);
    search_options o;
    o.threads = 1;
    o.memory_bytes = search_memory_needed(h, false, 1) - 1;
    CHECK_THROWS_AS(bfs(g, 0, o), emflow::config_error);
    CHECK_THROWS_WITH(bfs(g, 0, o), Catch::Contains("needs a memory budget of at least"));
    o.memory_bytes = search_memory_needed(h, false, 1);
    const graph_test::ram_graph ram = graph_test::load(g);
    CHECK(bfs(g, 0, o).distance == graph_test::dijkstra(ram, 0, true));
    CHECK_THROWS_WITH(bfs(g, 1000, o), Catch::Contains("source vertex 1000 out of range"));
}
