// SPDX-License-Identifier: BSL-1.0
// emflow-graph SIGKILLed part-way: generate killed while it writes the graph, sssp killed while
// it searches and while it writes its distances; the output directory holds no new file (or only
// a complete output, where the run finished first) and the temporary directory holds nothing
// (the outputs are unnamed until complete: O_TMPFILE, linked into place).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "test_env.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

using clock_type = std::chrono::steady_clock;

//! The names in directory d.
std::vector<std::string> names_in(const fs::path& d) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
    return names;
}

//! Whether process pid has a file open in directory dir (an unnamed O_TMPFILE one included:
//! /proc shows it as "dir/#inode (deleted)").
bool has_file_in(pid_t pid, const fs::path& dir) {
    std::error_code ec;
    for (const auto& fd : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
        const fs::path target = fs::read_symlink(fd.path(), ec);
        if (!ec && target.parent_path() == dir) return true;
    }
    return false;
}

//! Starts emflow-graph with args and --tmp-dir tmp, stderr to /dev/null.
pid_t start_tool(std::vector<std::string> args, const fs::path& tmp) {
    args.insert(args.begin(), EMFLOW_GRAPH_PATH);
    args.insert(args.end(), {"--tmp-dir", tmp.string()});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, EMFLOW_GRAPH_PATH, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
    return pid;
}

//! SIGKILLs pid once it has a file open in watched, or after at most `after`, or not at all if
//! it exits first; returns its wait status.
int kill_when_writing(pid_t pid, const fs::path& watched, std::chrono::milliseconds after) {
    const auto deadline = clock_type::now() + after;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (has_file_in(pid, watched) || clock_type::now() >= deadline) {
            ::kill(pid, SIGKILL);
            REQUIRE(::waitpid(pid, &status, 0) == pid);
            return status;
        }
    }
    return status;
}

//! A run's output and temporary directories, made inside the test directory.
struct run_dirs {
    fs::path out, tmp;
    explicit run_dirs(const std::string& name) {
        const fs::path base = fs::canonical(emflow_test::test_dir().path());
        out = base / (name + "-out");
        tmp = base / (name + "-tmp");
        fs::create_directories(out);
        fs::create_directories(tmp);
    }
};

//! A graph of n vertices (road-like, seeded) in dir, written by a complete run.
fs::path road_graph(const fs::path& dir, std::uint64_t n) {
    const fs::path g = dir / "road.emg";
    const pid_t pid =
        start_tool({"generate", "road", "--vertices", std::to_string(n), "--seed",
                    std::to_string(emflow_test::test_seed() % 1000000), "-o", g.string(), "-q"},
                   dir);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return g;
}

}  // namespace

TEST_CASE("emflow-graph generate SIGKILLed while writing the graph leaves nothing", "[tools]") {
    run_dirs d("generate");
    // 2^17 vertices, 2^21 edges through an 8 MiB budget: the sort spills to tmp, and the graph is
    // written for a good part of a second.
    const pid_t pid = start_tool({"generate", "kron", "--scale", "17", "--memory", "8MiB", "-o",
                                  (d.out / "k.emg").string(), "-q"},
                                 d.tmp);
    const int status = kill_when_writing(pid, d.out, std::chrono::seconds(30));
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    CHECK(names_in(d.out).empty());
    CHECK(names_in(d.tmp).empty());
}

TEST_CASE("emflow-graph sssp SIGKILLed while searching leaves nothing", "[tools]") {
    run_dirs d("search");
    const fs::path g = road_graph(d.tmp.parent_path(), 1 << 18);
    // Δ = 1 and one thread: a quarter of a million rounds, over a second; killed after 200 ms.
    const pid_t pid =
        start_tool({"sssp", g.string(), "--source", "0", "--delta", "0", "--threads", "1", "-o",
                    (d.out / "r.dist").string(), "--parents", (d.out / "r.par").string(), "-q"},
                   d.tmp);
    const int status = kill_when_writing(pid, d.out, std::chrono::milliseconds(200));
    REQUIRE(WIFSIGNALED(status));
    CHECK(names_in(d.out).empty());
    CHECK(names_in(d.tmp).empty());
}

TEST_CASE("emflow-graph sssp SIGKILLed while writing leaves no partial output", "[tools]") {
    run_dirs d("write");
    const std::uint64_t n = 1 << 18;
    const fs::path g = road_graph(d.tmp.parent_path(), n);
    const fs::path dist = d.out / "r.dist";
    const pid_t pid =
        start_tool({"sssp", g.string(), "--source", "0", "-o", dist.string(), "-q"}, d.tmp);
    // Killed as soon as its distance file is open; should the run finish between two looks, the
    // file it left must be whole.
    const int status = kill_when_writing(pid, d.out, std::chrono::seconds(30));
    if (WIFSIGNALED(status)) {
        CHECK(names_in(d.out).empty());
    } else {
        WARN("emflow-graph finished before it was seen writing");
        CHECK(WEXITSTATUS(status) == 0);
        CHECK(names_in(d.out) == std::vector<std::string>{"r.dist"});
        CHECK(fs::file_size(dist) == 8 * n);
    }
    CHECK(names_in(d.tmp).empty());
}
