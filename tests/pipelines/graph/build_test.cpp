// SPDX-License-Identifier: BSL-1.0
// tests/pipelines/graph/build_test.cpp: the graph format, the importers (DIMACS, SNAP, binary),
// the build options, the generators, and the errors for malformed input.
#include <emflow/pipelines/graph/detail/astar_scale.hpp>
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/import.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "reference.hpp"
#include "test_env.hpp"

using namespace emflow::pipelines::graph;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
    std::string p = (emflow_test::configure_test_disks().path() / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
}

std::string path_of(const std::string& name) {
    return (emflow_test::configure_test_disks().path() / name).string();
}

std::string bytes_of(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

//! The message of the runtime_error f throws.
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("DIMACS files become a 0-based CSR graph with coordinates", "[graph]") {
    std::string gr = write_file("a.gr",
                                "c a comment\n\np sp 4 5\na 1 2 7\na 1 3 2\r\na 3 2 1\n"
                                "a 2 4 0\na 1 2 9\n");
    std::string co = write_file("a.co", "c coords\np aux sp co 4\nv 1 0 0\nv 2 3 4\nv 4 -1 2.5\n");
    graph_header h = import_dimacs(gr, co, path_of("a.emg"));
    CHECK(h.vertices == 4);
    CHECK(h.edges == 5);
    CHECK(h.weighted());
    CHECK(h.has_coordinates());
    CHECK(h.min_weight == 0);
    CHECK(h.max_weight == 9);
    graph_test::ram_graph g = graph_test::load(path_of("a.emg"));
    CHECK(g.offsets == std::vector<std::uint64_t>{0, 3, 4, 5, 5});
    CHECK(g.targets == std::vector<std::uint32_t>{1, 1, 2, 3, 1});
    CHECK(g.weights == std::vector<std::uint32_t>{7, 9, 2, 0, 1});
    CHECK(!std::filesystem::exists(path_of("a.emg.tmp")));
}

TEST_CASE("build options: undirected, self loops and parallel edges dropped", "[graph]") {
    std::string snap =
        write_file("s.txt", "# SNAP\n0 1 5\n1 0 3\n2 2 1\n0 1 4\n\n  # more\n3 1 1\n");
    build_options o;
    o.undirected = true;
    o.drop_self_loops = true;
    o.drop_parallel = true;
    graph_header h = import_snap(snap, path_of("s.emg"), o);
    CHECK(h.vertices == 4);
    graph_test::ram_graph g = graph_test::load(path_of("s.emg"));
    CHECK(g.offsets == std::vector<std::uint64_t>{0, 1, 3, 3, 4});
    CHECK(g.targets == std::vector<std::uint32_t>{1, 0, 3, 1});
    CHECK(g.weights == std::vector<std::uint32_t>{3, 3, 1, 1});  // the lightest of the parallels
}

TEST_CASE("SNAP edge lists without weights and binary edge lists", "[graph]") {
    graph_header h = import_snap(write_file("u.txt", "0 2\n2 1\n"), path_of("u.emg"));
    CHECK(!h.weighted());
    CHECK(h.vertices == 3);
    CHECK(h.edges == 2);
    std::string bin;
    auto put = [&](auto x) { bin.append(reinterpret_cast<const char*>(&x), sizeof x); };
    put(std::uint64_t(5)), put(std::uint64_t(0)), put(std::uint32_t(8));
    put(std::uint64_t(0)), put(std::uint64_t(5)), put(std::uint32_t(2));
    h = import_binary(write_file("e.bin", bin), path_of("e.emg"), {8, true});
    CHECK(h.vertices == 6);
    graph_test::ram_graph g = graph_test::load(path_of("e.emg"));
    CHECK(g.targets == std::vector<std::uint32_t>{5, 0});
    CHECK(g.weights == std::vector<std::uint32_t>{2, 8});
}

TEST_CASE("malformed input is an error naming file and line or offset, no output left", "[graph]") {
    struct bad {
        std::string text, expect;
    };
    for (const bad& b : {bad{"p sp 3 1\na 1 x 2\n", ":2: malformed target 'x'"},
                         bad{"p sp 3 1\nc\na 1 4 2\n", ":3: vertex id out of range 1..3"},
                         bad{"p sp 3 1\na 1 2 -2\n", ":2: negative weight '-2'"},
                         bad{"p sp 3 1\na 1 2 4294967296\n", ":2: weight '4294967296' too large"},
                         bad{"a 1 2 3\n", ":1: arc before the problem line"},
                         bad{"p sp 3 1\na 1 2 3 4\n", ":2: unexpected extra field '4'"}}) {
        std::string gr = write_file("bad.gr", b.text);
        std::string msg = error_of([&] { import_dimacs(gr, "", path_of("bad.emg")); });
        CHECK_THAT(msg, Catch::Contains(gr + b.expect));
        CHECK(!std::filesystem::exists(path_of("bad.emg")));
        CHECK(!std::filesystem::exists(path_of("bad.emg.tmp")));
    }
    std::string msg =
        error_of([&] { import_snap(write_file("bad.txt", "0 1\n1 2 3\n"), path_of("bad.emg")); });
    CHECK_THAT(msg, Catch::Contains("bad.txt:2: unexpected extra field '3'"));
    msg = error_of([&] {
        import_binary(write_file("t.bin", std::string(13, '\0')), path_of("bad.emg"), {4, true});
    });
    CHECK_THAT(msg, Catch::Contains("t.bin: truncated record at offset 12"));
    CHECK_THAT(error_of([&] { import_snap(path_of("missing.txt"), path_of("bad.emg")); }),
               Catch::Contains("missing.txt"));
    CHECK(!std::filesystem::exists(path_of("bad.emg")));
}

TEST_CASE("generators are deterministic by seed and well-formed", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    generate_kron(path_of("k1.emg"), 10, 8, o);
    generate_kron(path_of("k2.emg"), 10, 8, o);
    CHECK(bytes_of(path_of("k1.emg")) == bytes_of(path_of("k2.emg")));
    graph_header h = read_header(path_of("k1.emg"));
    CHECK(h.vertices == 1024);
    CHECK(h.edges == 8192);
    h = generate_uniform(path_of("u.emg"), 1000, 5000, o);
    CHECK(h.edges == 5000);
    h = generate_road(path_of("r.emg"), 1000, o);
    CHECK(h.vertices == 1000);
    CHECK(h.has_coordinates());
    CHECK(h.edges > 1500);
    graph_test::ram_graph g = graph_test::load(path_of("r.emg"));
    CHECK(std::all_of(g.weights.begin(), g.weights.end(), [](std::uint32_t w) { return w >= 1; }));
}

namespace {

//! The scale a scan of the edges of the graph file g finds (what A* does for older files).
double scanned_scale(const std::string& g) {
    const graph_header h = read_header(g);
    detail::posix_file f(g, detail::posix_file::read_only);
    std::vector<double> xy(2 * h.vertices);
    f.read_at(h.coordinates_at(), xy.data(), xy.size() * sizeof(double));
    return detail::scan_astar_scale(f, h, xy);
}

//! Rewrites the header of the graph file g with edit applied (no checks: it may make it bad).
template <class Edit>
void edit_header(const std::string& g, Edit edit) {
    graph_header h;
    std::fstream f(g, std::ios::in | std::ios::out | std::ios::binary);
    f.read(reinterpret_cast<char*>(&h), sizeof h);
    edit(h);
    f.seekp(0);
    f.write(reinterpret_cast<const char*>(&h), sizeof h);
}

}  // namespace

TEST_CASE("the header stores A*'s scale, equal to a scan of the edges", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    for (std::uint32_t div : {1u, 64u}) {
        o.weight_divisor = div;
        const graph_header h = generate_road(path_of("r.emg"), 3000, o);
        REQUIRE(h.has_astar_scale());
        CHECK(h.astar_scale > 0);
        CHECK(h.astar_scale == scanned_scale(path_of("r.emg")));  // exact: the same doubles
        CHECK(read_header(path_of("r.emg")).astar_scale == h.astar_scale);
    }
    // Weights below the lengths, a vertex without coordinates (at (0, 0)), an edge of length 0.
    std::string gr = write_file("s.gr", "p sp 4 4\na 1 2 3\na 2 3 10\na 3 4 1\na 4 1 8\n");
    std::string co = write_file("s.co", "v 1 0 0\nv 2 4 0\nv 3 4 3\n");
    graph_header h = import_dimacs(gr, co, path_of("s.emg"));
    REQUIRE(h.has_astar_scale());
    CHECK(h.astar_scale == scanned_scale(path_of("s.emg")));
    CHECK(h.astar_scale == Approx(0.2));  // edge 3 -> 4 ((4, 3) to (0, 0)): weight 1, length 5
    h = import_dimacs(gr, "", path_of("n.emg"));
    CHECK(!h.has_astar_scale());
    CHECK(!generate_kron(path_of("k.emg"), 6, 4, o).has_astar_scale());
}

TEST_CASE("files without a stored A* scale are read, bad stored scales refused", "[graph]") {
    generate_options o;
    o.seed = emflow_test::test_seed();
    const std::string g = path_of("r.emg");
    generate_road(g, 1000, o);
    edit_header(g, [](graph_header& h) {  // a file written before the scale was stored
        h.flags &= ~std::uint32_t(flag_astar_scale);
        h.astar_scale = 0;
    });
    CHECK(!read_header(g).has_astar_scale());
    for (double bad : {-1.0, std::nan(""), HUGE_VAL}) {
        edit_header(g, [&](graph_header& h) {
            h.flags |= flag_astar_scale;
            h.astar_scale = bad;
        });
        CHECK_THAT(error_of([&] { read_header(g); }), Catch::Contains("bad A* scale"));
    }
    generate_kron(path_of("k.emg"), 6, 4, o);
    edit_header(path_of("k.emg"), [](graph_header& h) { h.flags |= flag_astar_scale; });
    CHECK_THAT(error_of([&] { read_header(path_of("k.emg")); }),
               Catch::Contains("the graph has no coordinates"));
}
