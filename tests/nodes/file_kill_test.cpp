// SPDX-License-Identifier: BSL-1.0
// tests/nodes/file_kill_test.cpp: a file_sink's output cannot be left half-written: a writer
// SIGKILLed part-way (the helper file_sink_writer) leaves no new file in the target directory,
// and a file it was replacing intact (file.hpp: O_TMPFILE, linked into place on commit).
#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_env.hpp"

extern char** environ;

namespace {

//! The names in directory d, sorted.
std::vector<std::string> names_in(const std::filesystem::path& d) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(d))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

//! Runs the writer on output, waits until it is writing, SIGKILLs it; returns its wait status.
int kill_writer_part_way(const std::filesystem::path& output) {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::string helper = EMFLOW_FILE_SINK_WRITER, target = output.string();
    char* argv[] = {helper.data(), target.data(), nullptr};
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    REQUIRE(rc == 0);
    std::string said;
    char c = 0;
    while (::read(out[0], &c, 1) == 1 && c != '\n') said += c;
    ::close(out[0]);
    ::kill(pid, SIGKILL);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(said == "writing");
    return status;
}

}  // namespace

TEST_CASE("file_sink: a writer SIGKILLed part-way leaves no file behind", "[nodes]") {
    emflow_test::scoped_test_dir dir;
    const int status = kill_writer_part_way(dir.path() / "out.bin");
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    CHECK(names_in(dir.path()).empty());
}

TEST_CASE("file_sink: a writer SIGKILLed part-way leaves the file it replaces intact", "[nodes]") {
    emflow_test::scoped_test_dir dir;
    const auto path = dir.path() / "out.bin";
    std::ofstream(path) << "old contents";
    const int status = kill_writer_part_way(path);
    CHECK(WIFSIGNALED(status));
    CHECK(names_in(dir.path()) == std::vector<std::string>{"out.bin"});
    std::string text;
    std::getline(std::ifstream(path), text);
    CHECK(text == "old contents");
}
