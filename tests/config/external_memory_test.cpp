// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/external_memory.hpp. Each TEST_CASE runs in its own process (CTest), so each
// may configure the process's external memory once.
#include <emflow/external_memory.hpp>

#include <stxxl/bits/io/disk_queues.h>
#include <catch2/catch.hpp>
#include <stxxl/sorter>
#include <stxxl/vector>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "test_env.hpp"

namespace {

using emflow_test::scoped_test_dir;

struct u64_order {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

//! Writes n items through an stxxl::vector and reads them back; returns true if all match.
bool vector_round_trip(std::uint64_t n) {
    stxxl::VECTOR_GENERATOR<std::uint64_t, 2, 2, 64 * 1024>::result v;
    for (std::uint64_t i = 0; i < n; ++i) v.push_back(i * 2654435761u);
    std::uint64_t i = 0;
    for (auto it = v.cbegin(); it != v.cend(); ++it, ++i)
        if (*it != i * 2654435761u) return false;
    return i == n;
}

//! True if STXXL's request queue `id` exists: configuration makes them, not a first request, whose
//! unlocked queue creation races with another thread's (emflow/detail/request_queues.hpp).
bool queue_exists(int id) { return stxxl::disk_queues::get_instance()->get_queue(id) != nullptr; }

//! True if the block manager has never allocated a byte and STXXL has counted no I/O.
bool nothing_counted() {
    const auto v = emflow::current_io_volume();
    return v.bytes_read == 0 && v.bytes_written == 0 &&
           stxxl::block_manager::get_instance()->get_maximum_allocation() == 0;
}

}  // namespace

TEST_CASE("default configuration takes EMFLOW_TMPDIR and leaves no file behind", "[config]") {
    scoped_test_dir dir;
    ::setenv("EMFLOW_TMPDIR", dir.path().c_str(), 1);
    const auto& state = emflow::configure_external_memory();
    REQUIRE(state.dir.parent_path() == dir.path());
    REQUIRE(state.disk_files.size() == 1);
    CHECK_FALSE(std::filesystem::exists(state.dir));  // removed at once: the files are unlinked
    CHECK(dir.entries() == 0);

    const auto before = emflow::current_io_volume();
    REQUIRE(vector_round_trip(4'000'000));
    CHECK(emflow::current_io_volume().bytes_written > before.bytes_written);
    CHECK(dir.entries() == 0);
}

TEST_CASE("configuration logs no STXXL error on stderr", "[config]") {
    // The probe that makes the request queues wrote from an unaligned buffer, and STXXL said so
    // on stderr in every program ("[STXXL-ERRMSG] Buffer is not aligned").
    scoped_test_dir dir;
    emflow::external_memory_options cfg;
    cfg.tmp_base = dir.path().string();
    const std::string log = (dir.path() / "stderr.txt").string();
    std::fflush(stderr);
    const int saved = ::dup(2), file = ::open(log.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    REQUIRE(saved >= 0);
    REQUIRE(file >= 0);
    ::dup2(file, 2);
    emflow::configure_external_memory(cfg);
    std::cerr.flush();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    ::close(file);
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, !Catch::Contains("STXXL-ERRMSG"));
    std::filesystem::remove(log);
}

TEST_CASE("TMPDIR is used when EMFLOW_TMPDIR is unset", "[config]") {
    scoped_test_dir dir;
    ::unsetenv("EMFLOW_TMPDIR");
    ::setenv("TMPDIR", dir.path().c_str(), 1);
    CHECK(emflow::configure_external_memory().dir.parent_path() == dir.path());
}

TEST_CASE("a missing temp directory is an error naming the path", "[config]") {
    scoped_test_dir dir;
    emflow::external_memory_options cfg;
    cfg.tmp_base = (dir.path() / "missing").string();
    REQUIRE_THROWS_WITH(emflow::configure_external_memory(cfg),
                        Catch::Contains(cfg.tmp_base) && Catch::Contains("No such file"));
    CHECK_FALSE(emflow::external_memory_configured());
}

TEST_CASE("a file given as temp directory is an error", "[config]") {
    scoped_test_dir dir;
    emflow::external_memory_options cfg;
    cfg.tmp_base = (dir.path() / "plain-file").string();
    std::ofstream(cfg.tmp_base) << "x";
    REQUIRE_THROWS_AS(emflow::configure_external_memory(cfg), emflow::config_error);
    REQUIRE_THROWS_WITH(emflow::configure_external_memory(cfg), Catch::Contains("Not a directory"));
}

TEST_CASE("an unwritable temp directory is an error naming the path", "[config]") {
    scoped_test_dir dir;
    emflow::external_memory_options cfg;
    if (::geteuid() == 0) {
        cfg.tmp_base = "/sys";  // root may write anywhere but to a read-only file system
    } else {
        cfg.tmp_base = (dir.path() / "read-only").string();
        std::filesystem::create_directory(cfg.tmp_base);
        std::filesystem::permissions(
            cfg.tmp_base, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    }
    REQUIRE_THROWS_AS(emflow::configure_external_memory(cfg), emflow::config_error);
    REQUIRE_THROWS_WITH(emflow::configure_external_memory(cfg), Catch::Contains(cfg.tmp_base));
}

TEST_CASE("unknown I/O methods are rejected, known ones parsed", "[config]") {
    CHECK(emflow::parse_io_method("syscall") == emflow::io_method::syscall);
    CHECK(emflow::parse_io_method("linuxaio") == emflow::io_method::linuxaio);
    CHECK(emflow::parse_io_method("mmap") == emflow::io_method::mmap);
    REQUIRE_THROWS_AS(emflow::parse_io_method("floppy"), std::invalid_argument);
    REQUIRE_THROWS_WITH(emflow::parse_io_method("floppy"), Catch::Contains("floppy"));
}

TEST_CASE("an empty disk list is rejected", "[config]") {
    emflow::external_memory_options cfg;
    cfg.disks.clear();
    REQUIRE_THROWS_AS(emflow::configure_external_memory(cfg), std::invalid_argument);
}

TEST_CASE("a fixed-capacity disk takes syscall only: the others do not report a full disk",
          "[config]") {
    scoped_test_dir dir;
    for (auto method : {emflow::io_method::linuxaio, emflow::io_method::mmap}) {
        emflow::external_memory_options cfg;
        cfg.tmp_base = dir.path().string();
        cfg.disks = {emflow::disk_spec{}, emflow::disk_spec{8u << 20}};
        cfg.method = method;
        INFO(emflow::io_method_name(method));
        REQUIRE_THROWS_AS(emflow::configure_external_memory(cfg), std::invalid_argument);
        REQUIRE_THROWS_WITH(emflow::configure_external_memory(cfg),
                            Catch::Contains(emflow::io_method_name(method)));
        CHECK_FALSE(emflow::external_memory_configured());
        CHECK(dir.entries() == 0);
    }
}

TEST_CASE("configuring twice is a logic error", "[config]") {
    emflow_test::configure_test_disks();
    REQUIRE_THROWS_AS(emflow::configure_external_memory(), std::logic_error);
    emflow::ensure_external_memory();  // a no-op now
    CHECK(emflow::external_memory_configured());
}

TEST_CASE("a test's own disks after the process has disks: a logic error, not the wrong disks",
          "[config]") {
    auto& dir = emflow_test::configure_test_disks();
    emflow::external_memory_options small;
    small.disks = {emflow::disk_spec{1u << 20}};
    REQUIRE_THROWS_AS(emflow_test::configure_test_disks(small), std::logic_error);
    CHECK(&emflow_test::configure_test_disks() == &dir);  // the default disks stay
    CHECK(stxxl::config::get_instance()->disks_number() == 1);
    CHECK(stxxl::config::get_instance()->disk(0).size != (1u << 20));
}

TEST_CASE("configuration makes each disk's request queue and counts nothing", "[config]") {
    emflow::external_memory_options cfg;
    cfg.disks = {emflow::disk_spec{}, emflow::disk_spec{}, emflow::disk_spec{}};
    auto& dir = emflow_test::configure_test_disks(cfg);
    for (int id : {0, 1, 2}) CHECK(queue_exists(id));
    CHECK_FALSE(queue_exists(3));
    CHECK(nothing_counted());
    CHECK(dir.entries() == 0);  // the probe file is gone
}

TEST_CASE("two parallel disks with linuxaio", "[config]") {
    emflow::external_memory_options cfg;
    cfg.disks = {emflow::disk_spec{}, emflow::disk_spec{}};
    cfg.method = emflow::io_method::linuxaio;
    auto& dir = emflow_test::configure_test_disks(cfg);
    REQUIRE(stxxl::config::get_instance()->disks_number() == 2);
    CHECK(queue_exists(stxxl::file::DEFAULT_LINUXAIO_QUEUE));  // linuxaio disks share one
    CHECK(nothing_counted());
    REQUIRE(vector_round_trip(4'000'000));
    CHECK(dir.entries() == 0);
}

TEST_CASE("mmap disks", "[config]") {
    emflow::external_memory_options cfg;
    cfg.method = emflow::io_method::mmap;
    auto& dir = emflow_test::configure_test_disks(cfg);
    CHECK(queue_exists(0));
    CHECK(nothing_counted());
    REQUIRE(vector_round_trip(4'000'000));
    CHECK(dir.entries() == 0);
}

TEST_CASE("keep_logs keeps STXXL's logs in the private directory", "[config]") {
    emflow::external_memory_options cfg;
    cfg.keep_logs = true;
    auto& dir = emflow_test::configure_test_disks(cfg);
    auto logs = std::filesystem::path(std::getenv("STXXLLOGFILE"));
    CHECK(logs.parent_path().parent_path() == dir.path());
    CHECK(std::filesystem::exists(logs));
}

TEST_CASE("a full fixed-size disk gives a clear exception and leaves no file", "[config]") {
    emflow::external_memory_options cfg;
    cfg.disks = {emflow::disk_spec{8u << 20}};
    auto& dir = emflow_test::configure_test_disks(cfg);
    stxxl::sorter<std::uint64_t, u64_order> sorter(u64_order(), 16u << 20);
    REQUIRE_THROWS_WITH(
        [&] {
            for (std::uint64_t i = 0; i < (64u << 20) / 8; ++i) sorter.push(i * 7919);
            sorter.sort();
        }(),
        Catch::Contains("File too large"));
    CHECK(dir.entries() == 0);
}
