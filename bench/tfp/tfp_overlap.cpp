// SPDX-License-Identifier: BSL-1.0
// tfp_overlap: a CPU-heavy producer pipeline feeding the PPQ through bulk_push_from, which
// overlaps producing items with sorting them into the queue (its background tasks on the
// other core). Measures, on fresh queues: production alone, insertion alone (items already in
// RAM), and both overlapped, announcing small bulks (the default: heaps sorted during
// production) and the whole bulk (the paper's way: heaps grow, sorted at bulk_push_end). Each
// time is the best of --reps runs. Prints CSV rows
//   items,memory_mib,work,production_s,insertion_s,overlapped_s,overlapped_whole_bulk_s,
//   ratio,production_share,cores_used
// with ratio = overlapped / (production + insertion) (goal: <= 0.75 on 2 cores),
// production_share = production / (production + insertion) (about the best ratio possible:
// the overlapped run cannot beat production alone by much, which drains into a vector) and
// cores_used = CPU time / wall time of the best overlapped run (small-bulk announcement).
// A queue budget below the data size (64 MiB for 8M items) makes insertion flush to disk.
//
//   tfp_overlap [--items N] [--memory-mib M1,M2,...] [--work W1,W2,...] [--reps R]
#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/hash.hpp>
#include <emflow/nodes/pq_push.hpp>
#include <emflow/ppq.hpp>
#include <emflow/timing.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using min_queue = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

//! `work` rounds of splitmix64: the CPU-heavy part of producing an item.
std::uint64_t heavy(std::uint64_t x, unsigned work) {
    for (unsigned i = 0; i < work; ++i) {
        x = emflow::splitmix64(x);
    }
    return x;
}

auto producer(std::uint64_t n, unsigned work) {
    return emflow::generate(n, [i = std::uint64_t(0)]() mutable { return i++; }) |
           emflow::transform([work](std::uint64_t i) { return heavy(i, work); });
}

//! CPU seconds (user + system) of the process so far.
double cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

using emflow::seconds_since;

emflow::ppq_options queue_config(unsigned memory_mib) {
    emflow::ppq_options cfg;
    cfg.memory_bytes = std::size_t(memory_mib) << 20;
    cfg.num_threads = unsigned(emflow::flow_arena().max_concurrency());
    return cfg;
}

}  // namespace

//! Parses a comma-separated list of numbers.
std::vector<unsigned> parse_list(const std::string& arg) {
    std::vector<unsigned> out;
    std::stringstream ss(arg);
    for (std::string w; std::getline(ss, w, ',');) out.push_back(unsigned(std::stoul(w)));
    return out;
}

int main(int argc, char** argv) try {
    std::uint64_t n = 1 << 23;
    std::vector<unsigned> memories{64, 256};
    std::vector<unsigned> works{4, 8, 16, 32, 64};
    int reps = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--items")
            n = std::stoull(argv[i + 1]);
        else if (a == "--memory-mib")
            memories = parse_list(argv[i + 1]);
        else if (a == "--work")
            works = parse_list(argv[i + 1]);
        else if (a == "--reps")
            reps = std::max(1, std::stoi(argv[i + 1]));
        else
            throw std::invalid_argument("unknown option " + a);
    }
    emflow::ensure_external_memory();
    std::cout << "items,memory_mib,work,production_s,insertion_s,overlapped_s,"
                 "overlapped_whole_bulk_s,ratio,production_share,cores_used\n";
    for (unsigned memory_mib : memories)
        for (unsigned work : works) {
            double production = 1e300, insertion = 1e300, overlapped = 1e300,
                   overlapped_paper = 1e300, cores_used = 0;
            for (int r = 0; r < reps; ++r) {
                // Production alone: the pipeline drained into a vector.
                std::vector<std::uint64_t> items;
                items.reserve(n);
                auto t0 = std::chrono::steady_clock::now();
                emflow::materialize(producer(n, work), std::back_inserter(items));
                production = std::min(production, seconds_since(t0));

                auto fill = [&](auto&& source, std::size_t announce) {
                    min_queue pq(std::greater<std::uint64_t>(), queue_config(memory_mib));
                    emflow::bulk_push_options opt;
                    opt.overlap_bulk = announce;
                    const auto start = std::chrono::steady_clock::now();
                    emflow::bulk_push_from(pq, n, opt, std::forward<decltype(source)>(source));
                    const double s = seconds_since(start);
                    if (pq.size() != n) throw std::runtime_error("items lost");
                    return s;
                };
                // Insertion alone: the same items from RAM, the faster of small and whole-bulk
                // announcements. Then the overlapped run, both ways.
                insertion = std::min({insertion, fill(emflow::streamify(items), 0),
                                      fill(emflow::streamify(items), SIZE_MAX)});
                items = std::vector<std::uint64_t>();
                const double cpu0 = cpu_seconds();
                const double o = fill(producer(n, work), 0);
                if (o < overlapped) {
                    overlapped = o;
                    cores_used = (cpu_seconds() - cpu0) / o;
                }
                overlapped_paper = std::min(overlapped_paper, fill(producer(n, work), SIZE_MAX));
            }
            std::cout << n << "," << memory_mib << "," << work << "," << production << ","
                      << insertion << "," << overlapped << "," << overlapped_paper << ","
                      << overlapped / (production + insertion) << ","
                      << production / (production + insertion) << "," << cores_used << std::endl;
        }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "tfp_overlap: " << e.what() << "\n";
    return 1;
}
