// SPDX-License-Identifier: BSL-1.0
// bench/soak/ppq_soak.cpp: the PPQ soak of issue 52, part 5: a differential run of
// parallel_priority_queue against std::multiset (soak_run.hpp) at one budget and thread count.
// See bench/soak/README.md; bench/run-soak runs every configuration.
#include "soak_options.hpp"
#include "soak_run.hpp"

#include <emflow/external_memory.hpp>

#include <sys/resource.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

double peak_rss_mib() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

std::string config_name(const soak::options& o) {
    return std::to_string(o.budget_mib) + "MiB-" + std::to_string(o.threads) + "t";
}

std::string rerun_command(const soak::options& o, std::uint64_t ops) {
    return "ppq_soak --seed " + std::to_string(o.seed) + " --budget-mib " +
           std::to_string(o.budget_mib) + " --threads " + std::to_string(o.threads) + " --volume " +
           std::to_string(int(o.volume)) + " --ops " + std::to_string(ops);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") {
            std::cout << soak::usage();
            return 0;
        }
    soak::options o;
    try {
        o = soak::parse_options(args);
    } catch (const soak::usage_error& e) {
        std::cerr << "ppq_soak: " << e.what() << "\n" << soak::usage();
        return 2;
    }
    // STXXL prints to std::cout: send it to stderr, keep stdout for the CSV row.
    std::ostream csv(std::cout.rdbuf());
    std::cout.rdbuf(std::cerr.rdbuf());
    std::cerr << "ppq_soak: seed " << o.seed << ", " << o.ops << " ops, budget " << o.budget_mib
              << " MiB, " << o.threads << " threads, volume " << o.volume << " budgets\n";
    std::unique_ptr<soak::soak_run> run;
    try {
        emflow::external_memory_options em;
        em.tmp_base = o.tmp_dir;
        const auto& state = emflow::configure_external_memory(em);  // files unlinked at once
        std::cerr << "ppq_soak: disk file in " << state.dir.string() << " (unlinked)\n";
        run = std::make_unique<soak::soak_run>(o);
        const soak::run_summary s = run->run();
        const double rss = peak_rss_mib();
        std::cerr << "ppq_soak: PASS seed " << o.seed << ": " << s.ops << " ops in " << s.calls
                  << " calls, " << s.seconds << " s, " << std::size_t(double(s.ops) / s.seconds)
                  << " ops/s, at most " << s.max_items << " items, " << s.flushes << " flushes, "
                  << (s.bytes_written >> 20) << " MiB written, peak RSS " << rss << " MiB\n";
        for (const auto& [kind, n] : s.calls_by_kind)
            std::cerr << "ppq_soak:   " << n << " x " << kind << "\n";
        if (o.csv)
            csv << config_name(o) << "," << o.budget_mib << "," << o.threads << "," << o.seed << ","
                << s.ops << "," << s.calls << "," << s.seconds << ","
                << std::size_t(double(s.ops) / s.seconds) << "," << rss << "," << s.max_items << ","
                << s.bytes_written << ",PASS" << std::endl;
        return 0;
    } catch (const std::exception& e) {
        const bool model = dynamic_cast<const soak::mismatch*>(&e) != nullptr;
        const std::uint64_t call = run ? run->call() : 0;
        const std::uint64_t ops = run ? run->ops() : 0;
        std::cerr << "ppq_soak: " << (model ? "MISMATCH" : "FAILED (exception)") << " seed "
                  << o.seed << " operation " << call << " (" << (run ? run->call_name() : "setup")
                  << ", after " << ops << " item ops): " << e.what()
                  << "; rerun: " << rerun_command(o, ops + 1) << std::endl;
        return 3;
    }
}
