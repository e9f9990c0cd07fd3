// SPDX-License-Identifier: BSL-1.0
// The one-budget promise for single nodes, as the kernel counts it: peak RSS <= the graph's
// budget + 64 MiB for the sort node over 4x the budget, the file source reading a file of 4x
// the budget and the file sink writing one. Each test case runs in a process of its own
// (ctest), its peak reset before the run.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/process_memory.hpp>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "rss_check.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;
constexpr std::size_t budget = 32 * MiB;
constexpr u64 items = 4 * budget / sizeof(u64);

using emflow_test::peak_rss;

void check_peak(std::size_t before) { emflow_test::check_peak_rss(budget, before); }

run_options with_budget() {
    run_options opt;
    opt.memory_bytes = budget;
    return opt;
}

//! Writes items keys 0, 1, ... to path through a file_sink under the budget.
void write_file(const std::string& path) {
    file_sink<u64> out(path);
    u64 next = 0;
    materialize(generate(items, [&] { return next++; }), out, with_budget());
    out.commit();
}

}  // namespace

TEST_CASE("sort node peak RSS <= budget + 64 MiB over 4x the budget", "[nodes][rss]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    reset_peak_rss();
    const std::size_t before = peak_rss();
    count_sink<u64> counter;
    u64 last = 0;
    bool sorted = true;
    materialize(
        generate(items, [&] { return rng(); }) | sort(std::less<>()) | transform([&](u64 x) {
            sorted = sorted && last <= x;
            last = x;
            return x;
        }),
        counter, with_budget());
    check_peak(before);
    CHECK(counter.count() == items);
    CHECK(sorted);
}

TEST_CASE("file sink peak RSS <= budget + 64 MiB writing 4x the budget", "[nodes][rss]") {
    const auto& dir = emflow_test::configure_test_disks();
    const std::string path = (dir.path() / "out.bin").string();
    reset_peak_rss();
    const std::size_t before = peak_rss();
    write_file(path);
    check_peak(before);
    CHECK(std::filesystem::file_size(path) == items * sizeof(u64));
}

TEST_CASE("file source peak RSS <= budget + 64 MiB reading 4x the budget", "[nodes][rss]") {
    const auto& dir = emflow_test::configure_test_disks();
    const std::string path = (dir.path() / "in.bin").string();
    write_file(path);
    reset_peak_rss();
    const std::size_t before = peak_rss();
    count_sink<u64> counter;
    u64 next = 0;
    bool in_order = true;
    materialize(file_source<u64>(path) | transform([&](u64 x) {
                    in_order = in_order && x == next++;
                    return x;
                }),
                counter, with_budget());
    check_peak(before);
    CHECK(counter.count() == items);
    CHECK(in_order);
}
