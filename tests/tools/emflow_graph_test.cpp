// SPDX-License-Identifier: BSL-1.0
// emflow-graph as a user runs it: generate, import, sssp, bfs, astar, check and info agree with
// an in-memory Dijkstra; check rejects a changed distance file; every error is one line with
// its exit code and leaves no output and no temporary file behind.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../pipelines/graph/reference.hpp"
#include "test_env.hpp"

namespace fs = std::filesystem;

namespace {

struct run_result {
    int code;             // exit code
    std::string stdout_;  // what it printed there
    std::string stderr_;  // what it printed there
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

//! Runs emflow-graph with args (a shell word list) in dir, capturing stdout and stderr.
run_result run_tool(const fs::path& dir, const std::string& args) {
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    std::string cmd = "cd '" + dir.string() + "' && " + std::string(EMFLOW_GRAPH_PATH) + " " +
                      args + " --tmp-dir '" + dir.string() + "' >'" + out.string() + "' 2>'" +
                      err.string() + "'";
    int status = std::system(cmd.c_str());
    run_result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    fs::remove(out);
    fs::remove(err);
    return r;
}

std::vector<std::uint64_t> read_u64(const fs::path& p) {
    std::string b = slurp(p);
    std::vector<std::uint64_t> v(b.size() / 8);
    std::copy(b.begin(), b.begin() + std::ptrdiff_t(8 * v.size()),
              reinterpret_cast<char*>(v.data()));
    return v;
}

}  // namespace

TEST_CASE("emflow-graph commands agree with Dijkstra, check proves their results", "[tools]") {
    const fs::path dir = emflow_test::test_dir().path();
    const std::string seed = std::to_string(emflow_test::test_seed() % 1000000);
    REQUIRE(run_tool(dir, "generate road --vertices 3000 --seed " + seed + " -o r.emg -q").code ==
            0);
    const auto g = graph_test::load((dir / "r.emg").string());
    const auto expect = graph_test::dijkstra(g, 7);
    for (const char* delta : {"", "--delta 0", "--delta 12"}) {
        run_result r = run_tool(dir, std::string("sssp r.emg --source 7 -o r.dist ") + delta);
        REQUIRE(r.code == 0);
        CHECK_THAT(r.stderr_, Catch::Contains("reached"));
        CHECK(read_u64(dir / "r.dist") == expect);
        CHECK(run_tool(dir, "check r.emg r.dist --source 7").code == 0);
    }
    run_result a = run_tool(dir, "astar r.emg --source 7 --target 2999 -q");
    CHECK(a.code == 0);
    CHECK(a.stdout_ == (expect[2999] == emflow::pipelines::graph::unreached
                            ? std::string("unreachable\n")
                            : std::to_string(expect[2999]) + "\n"));
    REQUIRE(run_tool(dir, "bfs r.emg --source 7 -o r.bfs -q").code == 0);
    CHECK(read_u64(dir / "r.bfs") == graph_test::dijkstra(g, 7, true));
    CHECK(run_tool(dir, "check r.emg r.bfs --source 7 --bfs").code == 0);
    CHECK(run_tool(dir, "check r.emg r.bfs --source 7").code == 3);
    for (const char* c : {"sssp r.emg --source 7 -o r.dist", "bfs r.emg --source 7 -o r.bfs"})
        REQUIRE(run_tool(dir, std::string(c) + " --parents r.par -q").code == 0);
    CHECK(read_u64(dir / "r.par").size() == 3000);
    run_result pc = run_tool(dir, "check r.emg r.bfs --source 7 --bfs --parents r.par");
    CHECK(pc.code == 0);
    CHECK_THAT(pc.stderr_, Catch::Contains("distances and parents correct"));
    CHECK(run_tool(dir, "check r.emg r.dist --source 7 --parents r.par -q").code == 3);
    run_result info = run_tool(dir, "info r.emg");
    CHECK_THAT(info.stdout_,
               Catch::Contains("vertices 3000") && Catch::Contains("coordinates yes"));
}

TEST_CASE("emflow-graph imports DIMACS and SNAP files, 0-based", "[tools]") {
    const fs::path dir = emflow_test::test_dir().path();
    std::ofstream(dir / "a.gr") << "c test\np sp 3 3\na 1 2 4\na 2 3 1\na 1 3 9\n";
    std::ofstream(dir / "a.co") << "v 1 0 0\nv 2 4 0\nv 3 5 0\n";
    REQUIRE(run_tool(dir, "import dimacs a.gr --co a.co -o a.emg -q").code == 0);
    run_result a = run_tool(dir, "astar a.emg --source 0 --target 2 -q");
    CHECK(a.code == 0);
    CHECK(a.stdout_ == "5\n");
    std::ofstream(dir / "s.txt") << "# snap\n0 1\n1 2\n";
    REQUIRE(run_tool(dir, "import snap s.txt -o s.emg --undirected -q").code == 0);
    REQUIRE(run_tool(dir, "bfs s.emg --source 2 -o s.bfs -q").code == 0);
    CHECK(read_u64(dir / "s.bfs") == std::vector<std::uint64_t>{2, 1, 0});
}

TEST_CASE("emflow-graph errors: one line, distinct exit codes, no output left", "[tools]") {
    const fs::path dir = emflow_test::test_dir().path();
    std::ofstream(dir / "bad.gr") << "p sp 3 1\na 1 2 x\n";
    REQUIRE(run_tool(dir, "generate uniform --vertices 100 --edges 300 -o u.emg -q").code == 0);
    struct bad {
        std::string args;
        int code;
        std::string message;
    };
    for (const bad& b :
         {bad{"frob", 2, "unknown command 'frob'"},
          bad{"sssp u.emg -o out.dist", 2, "sssp needs --source S"},
          bad{"sssp u.emg --source 100 -o out.dist", 2, "out of range"},
          bad{"sssp missing.emg --source 0 -o out.dist", 4, "missing.emg"},
          bad{"import dimacs bad.gr -o out.emg", 4, "bad.gr:2: malformed weight 'x'"},
          bad{"sssp u.emg --source 0 -o out.dist --memory 1MiB", 7,
              "needs a memory budget of at least"},
          bad{"sssp u.emg --source 0 -o /nonexistent/out.dist", 5, "not a writable"},
          bad{"astar u.emg --source 0 --target 1", 2, "A* needs coordinates"}}) {
        INFO(b.args);
        run_result r = run_tool(dir, b.args);
        CHECK(r.code == b.code);
        CHECK_THAT(r.stderr_, Catch::StartsWith("emflow-graph: ") && Catch::Contains(b.message));
        CHECK(std::count(r.stderr_.begin(), r.stderr_.end(), '\n') == 1);
        for (const char* f : {"out.dist", "out.dist.tmp", "out.emg", "out.emg.tmp"})
            CHECK(!fs::exists(dir / f));
    }
    CHECK(run_tool(dir, "--help").code == 0);
}
