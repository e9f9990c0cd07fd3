// SPDX-License-Identifier: BSL-1.0
// The promise of one budget, for the process: peak RSS during a run <= budget + 64 MiB (code,
// STXXL's and oneTBB's own state), on a sort-heavy graph, the Diamond graph and the time-forward
// DAG evaluation, each with an input several times the budget. The peak is the kernel's
// (VmHWM), reset before the run (clear_refs); bench/memory does the same at larger budgets.
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>
#include <emflow/pipelines/diamond/diamond.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/process_memory.hpp>

#include <cstdint>
#include <random>
#include <string>

#include <emflow/pipelines/tfp/random_dag.hpp>
#include "rss_check.hpp"
#include "test_env.hpp"

using namespace emflow;
namespace tfp = emflow::pipelines::tfp;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

using emflow_test::peak_rss;

using u64_vector = stxxl::VECTOR_GENERATOR<u64>::result;

}  // namespace

TEST_CASE("peak RSS <= budget + 64 MiB: three sorts in a chain over 4x the budget",
          "[memory][rss]") {
    emflow_test::configure_test_disks();
    const std::size_t budget = 32 * MiB;
    const u64 n = 4 * budget / sizeof(u64);
    const u64 seed = emflow_test::test_seed();
    u64_vector in, out;
    std::mt19937_64 rng(seed);
    materialize(generate(n, [&] { return rng(); }), in);
    reset_peak_rss();
    const std::size_t before = peak_rss();
    run_options opt;
    opt.memory_bytes = budget;
    const io_volume io0 = current_io_volume();
    materialize(streamify(in) | sort(std::less<>()) | transform([](u64 x) { return x ^ 0xFF; }) |
                    sort(std::greater<>()) | transform([](u64 x) { return x ^ 0xFF; }) |
                    sort(std::less<>()),
                out, opt);
    const std::size_t peak = peak_rss();
    INFO("budget " << budget / MiB << " MiB, RSS before " << before / MiB << " MiB, peak "
                   << peak / MiB << " MiB");
    CHECK(peak <= budget + emflow_test::rss_allowance);
    // each sort writes its runs once and reads them once, the output is written once: a
    // merge short of memory would merge recursively, writing and reading its input again
    const io_volume io1 = current_io_volume();
    const double input = double(n * sizeof(u64));
    CHECK(double(io1.bytes_written - io0.bytes_written) < 4.5 * input);
    CHECK(double(io1.bytes_read - io0.bytes_read) < 4.5 * input);
    REQUIRE(out.size() == n);
    u64 prev = 0;
    bool sorted = true;
    for (auto it = out.cbegin(); it != out.cend(); ++it) {
        sorted = sorted && prev <= *it;
        prev = *it;
    }
    CHECK(sorted);
}

TEST_CASE("peak RSS <= budget + 64 MiB: the Diamond graph over 3x the budget", "[memory][rss]") {
    emflow_test::configure_test_disks();
    using namespace emflow::pipelines::diamond;
    const std::size_t budget = 48 * MiB;
    const u64 n = 3 * budget / sizeof(diamond_pair);
    std::mt19937_64 rng(emflow_test::test_seed());
    diamond_input in;
    materialize(generate(n,
                         [&] {
                             return diamond_pair{1 + rng() % (u64(1) << 40), rng() % 1000};
                         }),
                in);
    diamond_output out;
    reset_peak_rss();
    const std::size_t before = peak_rss();
    diamond_options cfg;
    cfg.memory_bytes = budget;
    auto sums = run_diamond(in, out, diamond_variant::parallel, cfg);
    const std::size_t peak = peak_rss();
    INFO("budget " << budget / MiB << " MiB, RSS before " << before / MiB << " MiB, peak "
                   << peak / MiB << " MiB");
    CHECK(peak <= budget + emflow_test::rss_allowance);
    CHECK(sums.output.count() == n);
    CHECK(sums.asc_path == sums.input);
    CHECK(sums.desc_path == sums.input);
}

TEST_CASE("peak RSS <= budget + 64 MiB: time-forward DAG evaluation, messages beyond the budget",
          "[memory][rss]") {
    emflow_test::configure_test_disks();
    const std::size_t budget = 48 * MiB;
    tfp::dag_spec spec;
    spec.nodes = 1u << 21;
    spec.degree = 2;
    spec.span = 1u << 20;  // about 2M messages (32 MiB) in flight
    tfp::node_vector inputs;
    tfp::edge_vector edges;
    tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
    reset_peak_rss();
    const std::size_t before = peak_rss();
    tfp::evaluation_options cfg;
    cfg.memory_bytes = budget;
    tfp::adaptive_window window(tfp::default_target_bulk(cfg));
    tfp::value_vector values;
    tfp::evaluate_dag(inputs, edges, values, window, cfg);
    const std::size_t peak = peak_rss();
    INFO("budget " << budget / MiB << " MiB, RSS before " << before / MiB << " MiB, peak "
                   << peak / MiB << " MiB, queue "
                   << tfp::resolve_budget(cfg).queue.memory_bytes / MiB << " MiB");
    CHECK(peak <= budget + emflow_test::rss_allowance);
    CHECK(values.size() == spec.nodes);
}
