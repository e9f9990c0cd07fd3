// SPDX-License-Identifier: BSL-1.0
// One memory budget per graph: the assignment by share within bounds, per phase; the
// config_error before any work; the phases a graph's sorts make; a run's own thread count.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/pipelines/diamond/diamond.hpp>

#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "diamond_input.hpp"
#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

//! The assigned bytes of the consumers named name in the phase of level (0 if none).
std::vector<std::size_t> assigned(const memory_report& r, int level, const std::string& name) {
    std::vector<std::size_t> out;
    for (const auto& p : r.phases)
        if (p.level == level)
            for (const auto& [n, b] : p.consumers)
                if (n == name) out.push_back(b);
    return out;
}

//! Options of a run with a budget of bytes, reporting its memory into report.
run_options with_budget(std::size_t bytes, memory_report& report) {
    run_options opt;
    opt.memory_bytes = bytes;
    opt.memory = &report;
    return opt;
}

}  // namespace

TEST_CASE("memory_plan: shares split the rest of a phase within the bounds", "[memory]") {
    memory_plan plan(100 * MiB);
    auto a = plan.declare("a", {1 * MiB, unbounded_memory, 1, 0});
    auto b = plan.declare("b", {1 * MiB, 30 * MiB, 1, 0});
    auto c = plan.declare("c", memory_demand::fixed(20 * MiB));
    auto d = plan.declare("d", {1 * MiB, unbounded_memory, 3, 0});
    memory_plan::below lower(plan);
    auto e = plan.declare("e", {1 * MiB, unbounded_memory, 1, 0});
    std::size_t told = 0;
    auto f = plan.declare_run_long("f", {0, unbounded_memory, 1, 4 * MiB},
                                   [&](std::size_t x) { told = x; });
    plan.assign();
    CHECK(plan.assigned(c) == 20 * MiB);  // an explicit size is kept
    CHECK(plan.assigned(f) == 4 * MiB);   // run-long: its default
    CHECK(told == 4 * MiB);
    // 100 - 4 - 20 = 76 MiB by shares 1:1:3 (b's maximum of 30 MiB is not reached)
    CHECK(plan.assigned(a) == 76 * MiB / 5);
    CHECK(plan.assigned(b) == 76 * MiB / 5);
    CHECK(plan.assigned(d) == 3 * 76 * MiB / 5);
    // another phase has the whole budget but the run-long part
    CHECK(plan.assigned(e) >= 96 * MiB - 1);
    CHECK(plan.assigned(e) <= 96 * MiB);
}

TEST_CASE("memory_plan: a consumer at its maximum leaves the rest to the others", "[memory]") {
    memory_plan plan(100 * MiB);
    auto a = plan.declare("a", {1 * MiB, unbounded_memory, 1, 0});
    auto b = plan.declare("b", {1 * MiB, 10 * MiB, 1, 0});
    auto c = plan.declare("c", {40 * MiB, unbounded_memory, 0.1, 0});
    plan.assign();
    CHECK(plan.assigned(b) == 10 * MiB);
    CHECK(plan.assigned(c) == 40 * MiB);  // its share gives less than its minimum
    CHECK(plan.assigned(a) >= 50 * MiB - 1);
    CHECK(plan.assigned(a) <= 50 * MiB);
}

TEST_CASE("memory_plan: without a budget every consumer gets its default", "[memory]") {
    memory_plan plan;
    auto a = plan.declare("a", {2 * MiB, 8 * MiB, 1, 64 * MiB});
    auto b = plan.declare("b", {2 * MiB, unbounded_memory, 1, 1 * MiB});
    auto c = plan.declare("c", memory_demand::fixed(3 * MiB));
    plan.assign();
    CHECK(plan.assigned(a) == 8 * MiB);
    CHECK(plan.assigned(b) == 2 * MiB);
    CHECK(plan.assigned(c) == 3 * MiB);
}

TEST_CASE("memory_plan: run-long buffers take at most a sixteenth of the budget above their minima",
          "[memory]") {
    memory_plan plan(64 * MiB);
    auto a = plan.declare_run_long("a", {1 * MiB, unbounded_memory, 1, 40 * MiB});
    auto b = plan.declare_run_long("b", {1 * MiB, unbounded_memory, 1, 40 * MiB});
    auto f = plan.declare_run_long("f", memory_demand::fixed(8 * MiB));
    auto c = plan.declare("c", {1 * MiB, unbounded_memory, 1, 0});
    plan.assign();
    CHECK(plan.assigned(a) == plan.assigned(b));
    CHECK(plan.assigned(f) == 8 * MiB);
    CHECK(plan.assigned(a) + plan.assigned(b) <= 6 * MiB);  // 2 MiB minima + 4 MiB
    CHECK(plan.assigned(a) + plan.assigned(b) >= 6 * MiB - 2);
    CHECK(plan.assigned(c) >= 50 * MiB - 2);
    CHECK(plan.assigned(c) <= 50 * MiB);
}

TEST_CASE("memory_plan: fixed run-long buffers above a quarter of the budget stay fixed",
          "[memory]") {
    memory_plan plan(32 * MiB);
    auto a = plan.declare_run_long("reader", memory_demand::fixed(6 * MiB));
    auto b = plan.declare_run_long("writer", memory_demand::fixed(6 * MiB));
    auto c = plan.declare("c", {1 * MiB, unbounded_memory, 1, 0});
    plan.assign();
    CHECK(plan.assigned(a) == 6 * MiB);
    CHECK(plan.assigned(b) == 6 * MiB);
    CHECK(plan.assigned(c) == 20 * MiB);
    CHECK(plan.acquire(c, 20 * MiB) == 20 * MiB);
}

TEST_CASE("memory_plan: a budget below a phase's minima is a config_error naming them",
          "[memory][errors]") {
    memory_plan plan(10 * MiB);
    plan.declare_run_long("reader", memory_demand::fixed(4 * MiB));
    plan.declare("sort runs", {5 * MiB, unbounded_memory, 1, 0});
    plan.declare("merge", {2 * MiB, unbounded_memory, 0, 0});
    try {
        plan.assign();
        FAIL("no config_error");
    } catch (const config_error& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("budget of 10.0 MiB") != std::string::npos);
        CHECK(msg.find("the 11.0 MiB that phase 1/1 (merge, sort runs) needs") !=
              std::string::npos);  // the phase as its progress names it
        CHECK(msg.find("reader 4.0 MiB") != std::string::npos);
        CHECK(msg.find("sort runs 5.0 MiB") != std::string::npos);
        CHECK(msg.find("merge 2.0 MiB") != std::string::npos);
        CHECK(msg.find("(11534336 bytes)") != std::string::npos);  // the sum, exactly
        CHECK(msg.find("phase -") == std::string::npos);
    }
}

TEST_CASE("memory_plan: the least budget is the run-long minima and the largest phase's",
          "[memory]") {
    memory_plan plan(64 * MiB);
    plan.declare_run_long("reader", {1 * MiB, 4 * MiB, 1, 2 * MiB});
    plan.declare("merge", {2 * MiB, unbounded_memory, 1, 0});
    plan.declare("sort runs", {3 * MiB, unbounded_memory, 1, 0});
    plan.declare_at(-1, "inner runs", {6 * MiB, unbounded_memory, 1, 0});
    CHECK(plan.least_bytes() == 7 * MiB);
    memory_plan empty(64 * MiB);
    CHECK(empty.least_bytes() == 0);
}

TEST_CASE("memory_plan: acquire never grants more than is free, but at least the minimum",
          "[memory]") {
    memory_plan plan(100 * MiB);
    auto a = plan.declare("a", {10 * MiB, unbounded_memory, 1, 0});
    auto b = plan.declare("b", {10 * MiB, unbounded_memory, 1, 0});
    plan.assign();
    CHECK(plan.acquire(a, 80 * MiB) == 80 * MiB);
    CHECK(plan.acquire(b, 50 * MiB) == 20 * MiB);
    plan.release(b);
    CHECK(plan.acquire(b, 50 * MiB) == 20 * MiB);
    CHECK(plan.acquire(a, 95 * MiB) == 80 * MiB);  // b holds 20
    plan.release(a);
    plan.release(b);
    auto c = plan.declare_at(1, "c", {30 * MiB, unbounded_memory, 1, 0});
    CHECK(plan.acquire(a, 90 * MiB) == 90 * MiB);
    CHECK(plan.acquire(c, 60 * MiB) == 30 * MiB);  // its minimum, though only 10 MiB are free
    CHECK(plan.peak_held() == 120 * MiB);
}

TEST_CASE("memory_plan: an optional part comes only from what the phase does not reserve",
          "[memory]") {
    memory_plan plan(100 * MiB);
    auto merge = plan.declare("merge", {2 * MiB, unbounded_memory, 0, 0});
    auto runs = plan.declare("runs", {2 * MiB, unbounded_memory, 1, 0});
    plan.assign();
    REQUIRE(plan.assigned(runs) == 98 * MiB);
    // the runs have not acquired their 98 MiB yet: of the optional 50 MiB nothing is spare
    CHECK(plan.acquire(merge, 10 * MiB, 50 * MiB) == 10 * MiB);
    CHECK(plan.acquire(runs, 80 * MiB) == 80 * MiB);
    // now they have: the optional part takes what is free
    CHECK(plan.acquire(merge, 10 * MiB, 50 * MiB) == 20 * MiB);
}

TEST_CASE("one budget: sorts in a chain make a phase each, runs below their merge", "[memory]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<u64> v(300000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1 + (i * 7919) % 100003;
    std::vector<u64> out;
    memory_report report;
    const run_options opt = with_budget(32 * MiB, report);
    materialize(streamify(v) | sort(std::less<>()) | transform([](u64 x) { return x + 1; }) |
                    sort(std::less<>()),
                std::back_inserter(out), opt);
    std::vector<u64> ref(v);
    std::sort(ref.begin(), ref.end());
    for (auto& x : ref) ++x;
    CHECK(out == ref);
    // levels: -2 runs of the first sort; -1 its merge and the second's runs; 0 the last merge
    REQUIRE(assigned(report, -2, "sort runs").size() == 1);
    REQUIRE(assigned(report, -1, "sort runs").size() == 1);
    CHECK(assigned(report, -1, "merge").size() == 1);
    CHECK(assigned(report, 0, "merge").size() == 1);
    CHECK(assigned(report, 0, "sort runs").empty());
    // a phase with one run formation gives it nearly all: the budget less the fixed parts
    CHECK(assigned(report, -2, "sort runs")[0] > 20 * MiB);
    CHECK(report.peak_held <= 32 * MiB);
    CHECK(report.peak_held > 16 * MiB);
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: an automatic merge prefetches with what its phase has spare", "[memory]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<u64> v(2 * MiB);  // 16 MiB
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 7919) % 1000003;
    sorter_node<u64, std::less<u64>> s(std::less<u64>{}, 0);
    run_options fill;
    fill.memory_bytes = 4 * MiB;  // runs of at most 2 MiB: at least 8 of them
    materialize(streamify(v), s, fill);
    // The merge alone in its run: one pass takes a block per run and a few more (about 4 MiB
    // here); the rest of 64 MiB is spare, so it adds prefetch_blocks_per_run blocks per run.
    std::vector<u64> out;
    memory_report report;
    const run_options merge = with_budget(64 * MiB, report);
    materialize(s, std::back_inserter(out), merge);
    std::sort(v.begin(), v.end());
    CHECK(out == v);
    using runs = external_runs<u64, std::less<u64>>;
    CHECK(report.peak_held >= runs::prefetch_blocks_per_run * 8 * runs::block_bytes());
    CHECK(report.peak_held <= 64 * MiB);
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: a merge shares its phase with the next sort's run formation", "[memory]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<u64> v(4 * MiB);  // 32 MiB: about eight runs of the first sort under 8 MiB
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 10000019;
    std::vector<u64> out;
    memory_report report;
    const run_options opt = with_budget(8 * MiB, report);
    const io_volume before = current_io_volume();
    materialize(streamify(v) | sort(std::less<>()) | transform([](u64 x) { return x ^ 1; }) |
                    sort(std::less<>()),
                std::back_inserter(out), opt);
    const io_volume after = current_io_volume();
    for (auto& x : v) x ^= 1;
    std::sort(v.begin(), v.end());
    CHECK(out == v);
    // Level -1 holds the first sort's merge and the second's run formation: equal shares, so
    // the merge has room to prefetch beyond its one pass (with its minimum it could not).
    const auto merge = assigned(report, -1, "merge"), runs = assigned(report, -1, "sort runs");
    REQUIRE(merge.size() == 1);
    REQUIRE(runs.size() == 1);
    CHECK(merge[0] == runs[0]);
    CHECK(merge[0] >= 3 * MiB);
    CHECK(report.peak_held <= opt.memory_bytes);
    // each sort writes and reads its runs once: no merge pass was added for the smaller runs
    const std::uint64_t input = v.size() * sizeof(u64);
    CHECK(after.bytes_written - before.bytes_written <= 2 * input + 4 * MiB);
    CHECK(after.bytes_read - before.bytes_read <= 2 * input + 4 * MiB);
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: run formation takes what the merge beside it leaves spare", "[memory]") {
    auto& dir = emflow_test::configure_test_disks();
    // 40 MiB into the first sort: two runs under 64 MiB, so its merge needs little. Half of it
    // goes on to the second sort: more than half its share (double-buffered runs of its share
    // alone would make two runs), less than half of what the merge leaves.
    std::vector<u64> v(5 * MiB);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 2654435761u) % 100000007;
    std::vector<u64> out;
    memory_report report;
    const run_options opt = with_budget(64 * MiB, report);
    const io_volume before = current_io_volume();
    materialize(streamify(v) | sort(std::less<>()) | filter([](u64 x) { return x % 2 == 0; }) |
                    sort(std::greater<>()),
                std::back_inserter(out), opt);
    const io_volume after = current_io_volume();
    std::vector<u64> ref;
    for (u64 x : v)
        if (x % 2 == 0) ref.push_back(x);
    std::sort(ref.begin(), ref.end(), std::greater<>());
    CHECK(out == ref);
    const auto runs = assigned(report, -1, "sort runs");
    REQUIRE(runs.size() == 1);
    const std::uint64_t second = ref.size() * sizeof(u64);
    // a half of its share's run buffers would not hold the second sort's input
    CHECK((runs[0] - external_runs<u64, std::less<u64>>::writer_bytes()) / 2 < second);
    // so the second sort formed one run, kept in RAM: only the first sort's runs were written
    CHECK(after.bytes_written - before.bytes_written <= v.size() * sizeof(u64) + 4 * MiB);
    CHECK(report.peak_held <= opt.memory_bytes);
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: the Diamond graph's phases and its hand split agree", "[memory][diamond]") {
    emflow_test::configure_test_disks();
    using namespace emflow::pipelines::diamond;
    diamond_input in;
    const u64 n = 200000;
    emflow_test::make_diamond_input(n, in);
    memory_report report;
    diamond_options cfg;
    cfg.memory_bytes = 64 * MiB;
    cfg.memory = &report;
    diamond_output auto_out, hand_out;
    auto sums = run_diamond(in, auto_out, diamond_variant::parallel, cfg);
    CHECK(sums.output.count() == n);
    CHECK(sums.asc_path == sums.input);
    CHECK(sums.desc_path == sums.input);
    // runs of sorts 4 and 10 | merges of 4 and 10, runs of 7 and 13 | merges of 7 and 13
    CHECK(assigned(report, -2, "sort runs").size() == 2);
    CHECK(assigned(report, -1, "sort runs").size() == 2);
    CHECK(assigned(report, -1, "merge").size() == 2);
    CHECK(assigned(report, 0, "merge").size() == 2);
    CHECK(report.peak_held <= 64 * MiB);
    cfg.sorter_bytes = 16 * MiB;
    cfg.memory = nullptr;
    auto hand = run_diamond(in, hand_out, diamond_variant::parallel, cfg);
    CHECK(hand.output == sums.output);
}

TEST_CASE("one budget: a budget too small fails before any element is read", "[memory][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<u64> v(100000, 5);
    std::atomic<std::size_t> read{0};
    std::vector<u64> out;
    run_options opt;
    opt.memory_bytes = 2 * MiB;
    try {
        materialize(streamify(v) | tap([&](u64) { ++read; }) | sort(std::less<>()) | async_pull(),
                    std::back_inserter(out), opt);
        FAIL("no config_error");
    } catch (const config_error& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("sort runs") != std::string::npos);
        CHECK(msg.find("budget of 2.0 MiB") != std::string::npos);
        CHECK(msg.find("phase 1/2 (") != std::string::npos);  // the runs' level, below the merge's
    }
    CHECK(read == 0);
    CHECK(out.empty());
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: least_memory is the least budget a run accepts", "[memory][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    std::vector<u64> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 7919) % v.size();
    std::atomic<std::size_t> read{0};
    auto graph = [&] {
        return streamify(v) | tap([&](u64) { ++read; }) | sort(std::less<>()) | async_pull() |
               sort(std::greater<>());
    };
    const std::size_t least = least_memory(graph());
    CHECK(read == 0);
    REQUIRE(least > 0);
    std::vector<u64> out;
    auto into_out = sink<u64>([&](u64 x) { out.push_back(x); });
    run_options opt;
    opt.memory_bytes = least - 1;
    CHECK_THROWS_AS(materialize(graph(), into_out, opt), config_error);
    CHECK(read == 0);
    opt.memory_bytes = least;
    materialize(graph(), into_out, opt);
    REQUIRE(out.size() == v.size());
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == out.size() - 1 - i);
    CHECK(dir.entries() == 0);
}

TEST_CASE("one budget: a run's threads form its arena", "[memory]") {
    emflow_test::configure_test_disks();
    std::vector<u64> v(100000, 1);
    for (int threads : {1, 2, 3}) {
        std::atomic<int> seen{0};
        run_options opt;
        opt.threads = threads;
        std::vector<u64> out;
        materialize(streamify(v) | transform([&](u64 x) {
                        seen = tbb::this_task_arena::max_concurrency();
                        return x;
                    }) | async_pull(),
                    std::back_inserter(out), opt);
        CHECK(seen == threads);
        CHECK(out.size() == v.size());
    }
}

TEST_CASE("one budget: each phase reports its progress, the merges' with the total known",
          "[memory][progress]") {
    emflow_test::configure_test_disks();
    std::vector<u64> v(400000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1 + (i * 7919) % 100003;
    std::mutex m;
    std::vector<progress_figures> finals;
    {
        progress report(
            [&](const progress_figures& f) {
                std::lock_guard<std::mutex> lock(m);
                if (f.finished) finals.push_back(f);
            },
            std::chrono::milliseconds(1));
        run_options opt;
        opt.memory_bytes = 16 * MiB;
        opt.report = &report;
        std::vector<u64> out;
        materialize(streamify(v) | sort(std::less<>()) | transform([](u64 x) { return x + 1; }) |
                        sort(std::less<>()),
                    std::back_inserter(out), opt);
        CHECK(out.size() == v.size());
    }
    const u64 bytes = v.size() * sizeof(u64);
    REQUIRE(finals.size() == 3);
    CHECK(finals[0].phase == "phase 1/3: sort runs");
    CHECK(finals[0].items == v.size());  // counted by the run formation
    CHECK(finals[0].bytes_total == 0);   // the source's size is not known
    CHECK(finals[1].phase == "phase 2/3: merge, sort runs");
    CHECK(finals[1].items == v.size());  // counted by the merge only
    CHECK(finals[1].bytes_total == bytes);
    CHECK(finals[2].phase == "phase 3/3: merge");
    CHECK(finals[2].bytes == bytes);
    CHECK(finals[2].bytes_total == bytes);
    for (const auto& f : finals) CHECK(f.elapsed_s >= 0);
}
