// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_options.hpp: the command line of ppq_soak.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace soak {

//! A bad command line (exit code 2).
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! What one ppq_soak run does.
struct options {
    std::uint64_t ops = 10000000;  //!< item operations (a push or pop of one item is one)
    std::uint64_t seed = 0;        //!< of every random decision; 0: from the clock
    std::size_t budget_mib = 16;   //!< ppq_options::memory_bytes in MiB
    unsigned threads = 2;          //!< ppq_options::num_threads, and pushers at most
    double volume = 3;             //!< queue size at a wave's crest, in budgets
    std::string tmp_dir;           //!< base of the external memory's directory
    bool csv = false;              //!< one CSV row on stdout at the end
};

inline const char* usage() {
    return "usage: ppq_soak [--ops N] [--seed S] [--budget-mib B] [--threads T] [--volume V]\n"
           "                [--tmp-dir DIR] [--csv] [--help]\n"
           "A differential soak of emflow::parallel_priority_queue against std::multiset:\n"
           "N item operations (default 10000000) of random calls of every public member --\n"
           "push, top, pop, bulk phases (explicit ids from std::threads, oneTBB tasks, OpenMP,\n"
           "plain std::threads without ids; single and array overloads), push_sorted,\n"
           "bulk_pop, bulk_pop_limit, limit phases (limit_push also from several threads),\n"
           "size, empty, stats, layout, and misuse that must throw -- in waves that grow the\n"
           "queue to V budgets (default 3, so it spills to disk) and drain it again; then the\n"
           "rest is drained and compared. Every extracted item is checked against the model.\n"
           "--budget-mib: the queue's memory_bytes (default 16). --threads: its num_threads\n"
           "(default 2). --seed: 0 or none takes the clock; printed at the start, and a run\n"
           "with the same seed, --ops, --budget-mib and --threads makes the same calls.\n"
           "--tmp-dir: where the disk file goes (default $EMFLOW_TMPDIR, $TMPDIR, /var/tmp;\n"
           "it is unlinked at once). --csv: print config,budget_mib,threads,seed,ops,calls,\n"
           "seconds,ops_per_s,peak_rss_mib,max_items,bytes_written,verdict on stdout.\n"
           "Progress goes to stderr. Exit 0: no mismatch; 3: a mismatch or an unexpected\n"
           "exception (one line naming the seed and the operation index); 2: bad arguments.\n";
}

inline std::uint64_t parse_number(const std::string& flag, const std::string& v) {
    std::size_t end = 0;
    std::uint64_t x = 0;
    try {
        x = std::stoull(v, &end);
    } catch (const std::exception&) {
        end = 0;
    }
    if (end != v.size() || v.empty() || v[0] == '-')
        throw usage_error(flag + " takes a non-negative integer, got '" + v + "'");
    return x;
}

inline options parse_options(const std::vector<std::string>& args) {
    options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--csv") {
            o.csv = true;
            continue;
        }
        if (i + 1 >= args.size()) throw usage_error("unknown or incomplete option '" + a + "'");
        const std::string& v = args[++i];
        if (a == "--ops") {
            o.ops = parse_number(a, v);
        } else if (a == "--seed") {
            o.seed = parse_number(a, v);
        } else if (a == "--budget-mib") {
            o.budget_mib = parse_number(a, v);
        } else if (a == "--threads") {
            o.threads = unsigned(parse_number(a, v));
        } else if (a == "--volume") {
            o.volume = double(parse_number(a, v));
        } else if (a == "--tmp-dir") {
            o.tmp_dir = v;
        } else {
            throw usage_error("unknown option '" + a + "'");
        }
    }
    if (o.budget_mib == 0 || o.threads == 0 || o.threads > 64 || o.volume == 0)
        throw usage_error("--budget-mib, --volume and --threads (at most 64) must be positive");
    if (o.seed == 0)
        o.seed = std::uint64_t(std::chrono::system_clock::now().time_since_epoch().count()) %
                     1000000007 +
                 1;
    return o;
}

}  // namespace soak
