// SPDX-License-Identifier: BSL-1.0
// file_sink's output under its final name: only after commit(), no temporary file left either
// way, and with the permissions any other program's output would get.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "test_env.hpp"

using namespace emflow;

namespace {

//! The permission bits of the file at path.
unsigned mode_of(const std::filesystem::path& p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return unsigned(st.st_mode & 07777);
}

//! The names in directory d.
std::vector<std::string> names_in(const std::filesystem::path& d) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(d))
        names.push_back(e.path().filename().string());
    return names;
}

//! Writes v to path through a file_sink, committed or not.
void write(const std::string& path, const std::vector<std::uint32_t>& v, bool commit) {
    file_sink<std::uint32_t> out(path);
    materialize(streamify(v), out);
    if (commit)
        out.commit();
    else
        out.discard();
}

//! Sets the process's umask for a scope.
struct scoped_umask {
    explicit scoped_umask(mode_t m) : old(::umask(m)) {}
    ~scoped_umask() { ::umask(old); }
    mode_t old;
};

}  // namespace

TEST_CASE("file_sink: the final name only after commit, no temporary file either way", "[nodes]") {
    emflow_test::configure_test_disks();
    emflow_test::scoped_test_dir dir;
    const auto path = dir.path() / "out.bin";
    const std::vector<std::uint32_t> v(300000, 7);
    write(path.string(), v, false);
    CHECK(names_in(dir.path()).empty());
    write(path.string(), v, true);
    CHECK(names_in(dir.path()) == std::vector<std::string>{"out.bin"});
    CHECK(std::filesystem::file_size(path) == v.size() * sizeof(std::uint32_t));
}

TEST_CASE("file_sink: a new file's mode follows the umask, a replaced file keeps its own",
          "[nodes]") {
    emflow_test::configure_test_disks();
    emflow_test::scoped_test_dir dir;
    const auto path = dir.path() / "out.bin";
    const std::vector<std::uint32_t> v(1000, 1);
    {
        scoped_umask mask(027);
        write(path.string(), v, true);
        CHECK(mode_of(path) == 0640u);
    }
    {
        scoped_umask mask(022);
        std::filesystem::remove(path);
        write(path.string(), v, true);
        CHECK(mode_of(path) == 0644u);
        std::filesystem::permissions(path, std::filesystem::perms(0604));
        write(path.string(), v, true);
        CHECK(mode_of(path) == 0604u);
    }
}
