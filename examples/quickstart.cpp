// SPDX-License-Identifier: BSL-1.0
// quickstart: emflow's own API in one program. Random keys are sorted twice under one memory
// budget, by the sort node and by the bulk-parallel priority queue (pushed in by a producer
// task, popped in order by a PQ node), each into a file; the files are then compared. Progress
// goes to stderr.
//
//   quickstart [items=20000000] [memory_mib=64]
#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/ppq.hpp>
#include <emflow/progress.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <utility>

using key = std::uint64_t;

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
    const std::size_t memory = std::size_t(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64)
                               << 20;
    const auto& disks = emflow::configure_external_memory();  // $EMFLOW_TMPDIR, $TMPDIR, /var/tmp
    const auto dir = disks.dir.parent_path();
    const std::string by_sort = (dir / "quickstart-sort.u64").string();
    const std::string by_pq = (dir / "quickstart-pq.u64").string();
    emflow::progress report(emflow::stderr_renderer());
    const emflow::run_options run{memory, 0, &report};  // one budget for everything a graph holds
    auto keys = [n] {
        return emflow::generate(n, [rng = std::mt19937_64(42)]() mutable { return rng(); });
    };

    emflow::file_sink<key> sorted(by_sort);  // 1. the sort node into a file
    emflow::materialize(keys() | emflow::sort(std::less<>()), sorted, run);
    sorted.commit();  // renamed into place: a failed run leaves no file

    emflow::ppq_options queue;  // 2. a min-queue (std::greater): pushed in by a producer task
    queue.memory_bytes = memory / 2;
    emflow::parallel_priority_queue<key, std::greater<>> pq(std::greater<>(), queue);
    emflow::bulk_push_from(pq, n, keys());
    emflow::file_sink<key> popped(by_pq);  // popped in order by a PQ node, whose queue counts
    emflow::materialize(emflow::pq_source(pq), popped, run);  // toward the run's budget
    popped.commit();

    std::uint64_t count = 0, differ = 0;  // 3. the two files side by side
    emflow::materialize(
        emflow::zip(emflow::file_source<key>(by_sort), emflow::file_source<key>(by_pq)),
        emflow::sink<std::pair<key, key>>(
            [&](const auto& p) { ++count, differ += p.first != p.second; }),
        run);
    std::filesystem::remove(by_sort);
    std::filesystem::remove(by_pq);
    const bool ok = count == n && differ == 0;
    std::printf("quickstart: %llu keys (%llu MiB) sorted twice in %zu MiB: %s\n",
                (unsigned long long)n, (unsigned long long)(n * sizeof(key) >> 20), memory >> 20,
                ok ? "identical" : "DIFFERENT");
    return ok ? 0 : 1;
}
