// SPDX-License-Identifier: BSL-1.0
// Graphs under one budget when RAM runs out: a failed allocation at any point of a run (run
// buffers, merge buffers, async buffers, vector and file buffers; in the caller's thread, an
// async node's or a run formation task) reaches the caller of materialize as std::bad_alloc,
// leaves no temp file and no output file, and the next run is correct. A binary of its own
// (failing_new.hpp).
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/pipelines/diamond/diamond.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "diamond_input.hpp"
#include "failing_new.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

}  // namespace

TEST_CASE("a failed allocation in a sort chain under one budget reaches the caller",
          "[memory][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        std::vector<u64> v(3 * MiB);  // 24 MiB under 8 MiB: runs on disk, two merges
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 10000019;
        run_options opt;
        opt.memory_bytes = 8 * MiB;
        opt.threads = 2;
        std::vector<u64> out;
        auto run = [&] {
            out.clear();
            materialize(streamify(v) | async_pull() | sort(std::less<>()) |
                            transform([](u64 x) { return x ^ 1; }) | sort(std::greater<>()),
                        std::back_inserter(out), opt);
        };
        emflow_test::check_failures_reach_the_caller(run);
        run();
        for (auto& x : v) x ^= 1;
        std::sort(v.begin(), v.end(), std::greater<>());
        CHECK(out == v);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a failed allocation in the Diamond graph under one budget reaches the caller",
          "[memory][errors][diamond]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        using namespace emflow::pipelines::diamond;
        diamond_input in;
        const u64 n = 300000;
        emflow_test::make_diamond_input(n, in);
        diamond_options cfg;
        cfg.memory_bytes = 32 * MiB;
        diamond_output out;
        emflow_test::check_failures_reach_the_caller(
            [&] { run_diamond(in, out, diamond_variant::parallel, cfg); });
        const auto sums = run_diamond(in, out, diamond_variant::parallel, cfg);
        CHECK(sums.output.count() == n);
        CHECK(sums.asc_path == sums.input);
        CHECK(sums.desc_path == sums.input);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("a failed allocation between files reaches the caller and leaves no output file",
          "[memory][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::string in = (dir.path() / "in").string(), out = (dir.path() / "out").string();
    {
        std::vector<u64> v(2 * MiB);  // 16 MiB under 8 MiB: runs on disk
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 10000019;
        {
            file_sink<u64> w(in);
            materialize(streamify(v), w);
            w.commit();
        }
        run_options opt;
        opt.memory_bytes = 8 * MiB;
        opt.threads = 2;
        auto run = [&] {
            std::filesystem::remove(out);
            file_sink<u64> w(out);
            materialize(file_source<u64>(in) | sort(std::less<>()), w, opt);
            w.commit();
        };
        emflow_test::check_failures_reach_the_caller(run);
        CHECK_FALSE(std::filesystem::exists(out));
        CHECK(dir.entries() == 1);  // the input only: no temporary output file left
        run();
        std::vector<u64> back;
        materialize(file_source<u64>(out), std::back_inserter(back));
        std::sort(v.begin(), v.end());
        CHECK(back == v);
    }
    std::filesystem::remove(in);
    std::filesystem::remove(out);
    CHECK(dir.entries() == 0);
}
