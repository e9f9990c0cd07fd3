// tfp_overlap: a CPU-heavy producer pipeline feeding the PPQ through bulk_push_from, which
// overlaps producing items with sorting them into the queue (its background tasks on the
// other core). Measures, in one run and on fresh queues: production alone, insertion alone
// (items already in RAM), and both overlapped, announcing small bulks (the default: heaps
// sorted during production) and the whole bulk (the paper's way: heaps grow, sorted at
// bulk_push_end); prints CSV rows
//   items,work,production_s,insertion_s,overlapped_s,overlapped_whole_bulk_s,ratio,cores_used
// with ratio = overlapped / (production + insertion) (goal: <= 0.75 on 2 cores) and
// cores_used = CPU time / wall time of the overlapped run (small-bulk announcement).
//
//   tfp_overlap [--items N] [--memory-mib M] [--work W1,W2,...]
#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/nodes/pq_push.hpp>
#include <emflow/ppq.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <algorithm>
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
        x += 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        x ^= x >> 31;
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

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

emflow::ppq_config queue_config(std::size_t memory_mib) {
    emflow::ppq_config cfg;
    cfg.memory_bytes = memory_mib << 20;
    cfg.num_threads = unsigned(emflow::flow_arena().max_concurrency());
    return cfg;
}

}  // namespace

int main(int argc, char** argv) try {
    std::uint64_t n = 1 << 23;
    std::size_t memory_mib = 64;
    std::vector<unsigned> works{8, 16, 32, 64};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--items") n = std::stoull(argv[i + 1]);
        else if (a == "--memory-mib") memory_mib = std::stoull(argv[i + 1]);
        else if (a == "--work") {
            works.clear();
            std::stringstream ss(argv[i + 1]);
            for (std::string w; std::getline(ss, w, ',');) works.push_back(unsigned(std::stoul(w)));
        } else throw std::invalid_argument("unknown option " + a);
    }
    emflow::ensure_external_memory();
    std::cout << "items,work,production_s,insertion_s,overlapped_s,overlapped_whole_bulk_s,ratio,cores_used\n";
    for (unsigned work : works) {
        // Production alone: the pipeline drained into a checksum.
        std::vector<std::uint64_t> items;
        items.reserve(n);
        auto t0 = std::chrono::steady_clock::now();
        emflow::materialize(producer(n, work), std::back_inserter(items));
        const double production = seconds_since(t0);

        // Insertion alone: the same items from RAM, the faster of small and whole-bulk
        // announcements. Then the overlapped run, both ways.
        auto fill = [&](auto&& source, std::size_t announce, std::size_t& size) {
            min_queue pq(std::greater<std::uint64_t>(), queue_config(memory_mib));
            emflow::bulk_push_options opt;
            opt.overlap_bulk = announce;
            const auto start = std::chrono::steady_clock::now();
            emflow::bulk_push_from(pq, n, opt, std::forward<decltype(source)>(source));
            const double s = seconds_since(start);
            size = pq.size();
            return s;
        };
        std::size_t size_a, size_b, size_c, size_d;
        const double insertion = std::min(fill(emflow::streamify(items), 0, size_a),
                                          fill(emflow::streamify(items), SIZE_MAX, size_b));
        items = std::vector<std::uint64_t>();
        const double cpu0 = cpu_seconds();
        const double overlapped = fill(producer(n, work), 0, size_c);
        const double cores_used = (cpu_seconds() - cpu0) / overlapped;
        const double overlapped_paper = fill(producer(n, work), SIZE_MAX, size_d);
        if (size_a != n || size_b != n || size_c != n || size_d != n)
            throw std::runtime_error("items lost");
        std::cout << n << "," << work << "," << production << "," << insertion << ","
                  << overlapped << "," << overlapped_paper << ","
                  << overlapped / (production + insertion) << "," << cores_used << std::endl;
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "tfp_overlap: " << e.what() << "\n";
    return 1;
}
