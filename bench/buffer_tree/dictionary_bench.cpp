// SPDX-License-Identifier: BSL-1.0
// bench/buffer_tree/dictionary_bench.cpp: the buffer tree as a batched dictionary against the
// same operations done by sorting (sort_merge_dictionary.hpp). n inserts of random (key, value)
// pairs, then n mixed operations (half look-ups, a quarter inserts, a quarter erases), all
// answers delivered; n pairs fill k times the budget. The buffer tree: inserts, flush, mixed
// operations (answers pulled while many wait), flush(f) handing the rest to a counter. By
// sorting: the inserts sorted into a run, the mixed operations sorted by (key, time) and merged
// with it (new run written, answers handed to a counter), as one batch and as 4 and 16 batches
// (each merged with the whole set). Reports
// each phase's time, the mixed phase's operations per second and its disk volume per operation
// against Arge's bound (1/B) log_m(n/B) blocks. All must give the same number of answers.
// fanouts: the trees measured, b = m/d for each d listed (a = b/4); "buffer_tree" is the default
// b = m/8, the others "buffer_tree_m/d". CSV on stdout.
//
//   dictionary_bench [budget_mib=16] [multiples=4,16] [fanouts=8]
#include "sort_merge_dictionary.hpp"

#include <emflow/buffer_tree.hpp>
#include <emflow/external_memory.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using dict_bench::u64;
constexpr std::size_t block_bytes = std::size_t(64) << 10;
using tree = emflow::buffer_tree<u64, u64, std::less<u64>, block_bytes>;

struct phase {
    double seconds;
    double mib_moved;
};

template <class F>
phase measure(F&& f) {
    const auto io0 = emflow::current_io_volume();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto io1 = emflow::current_io_volume();
    return {s, double(io1.bytes_read - io0.bytes_read + io1.bytes_written - io0.bytes_written) /
                   1048576.0};
}

//! The workload of one multiple: the same operations for both methods.
struct workload {
    std::size_t n;  //!< inserts, then mixed operations
    u64 range;      //!< keys are below it
    unsigned seed;  //!< of both phases' random numbers
};

//! One measured method.
struct outcome {
    phase inserts, mixed;
    u64 answers;
    std::size_t height;
};

outcome run_tree(const workload& w, std::size_t budget, std::size_t fanout_divisor) {
    std::mt19937_64 rng(w.seed);
    emflow::buffer_tree_options opt;
    opt.memory_bytes = budget;
    opt.fanout_max = std::max<std::size_t>(4, budget / block_bytes / fanout_divisor);
    tree t(std::less<u64>(), opt);
    outcome r{};
    r.inserts = measure([&] {
        for (std::size_t i = 0; i < w.n; ++i) t.insert(rng() % w.range, i);
        t.flush();
    });
    r.mixed = measure([&] {
        for (std::size_t i = 0; i < w.n; ++i) {
            const u64 key = rng() % w.range;
            const unsigned what = rng() % 4;
            if (what < 2)
                t.lookup(key);
            else if (what == 2)
                t.insert(key, i);
            else
                t.erase(key);
            if (t.answers_waiting() > (1u << 16))
                for (; !t.empty(); t += t.batch_length()) r.answers += t.batch_length();
        }
        t.flush([&](const tree::value_type&) { ++r.answers; });
    });
    r.height = t.stats().height;
    return r;
}

//! The same operations by sorting, in `batches` batches (each sorted and merged with the whole
//! set: the buffer tree answers as it goes, so fewer, larger batches flatter the sorting).
outcome run_sort_merge(const workload& w, std::size_t budget, std::size_t batches) {
    std::mt19937_64 rng(w.seed);
    dict_bench::sort_merge_dictionary d(budget);
    outcome r{};
    r.inserts = measure([&] {
        d.build(w.n, [&, i = u64(0)]() mutable {
            return dict_bench::pair_kv{rng() % w.range, i++};
        });
    });
    u64 time = 0;
    auto next_op = [&] {
        const u64 key = rng() % w.range;
        const unsigned what = rng() % 4;
        const auto kind = what < 2    ? dict_bench::op_kind::lookup
                          : what == 2 ? dict_bench::op_kind::insert
                                      : dict_bench::op_kind::erase;
        const dict_bench::operation o{key, time, time, kind};
        ++time;
        return o;
    };
    r.mixed = measure([&] {
        for (std::size_t b = 0; b < batches; ++b)
            d.apply(w.n * (b + 1) / batches - w.n * b / batches, next_op,
                    [&](const dict_bench::answer&) { ++r.answers; });
    });
    return r;
}

void row(const char* method, std::size_t k, std::size_t budget, const workload& w,
         const outcome& r) {
    const double big_b = double(block_bytes) / (2 * sizeof(u64) + 16);  // requests per block
    const double m = double(budget) / block_bytes;
    const double bound = std::log(double(w.n) / big_b) / std::log(m) / big_b;
    const double per_op = r.mixed.mib_moved * 1048576.0 / block_bytes / double(w.n);
    std::printf("%s,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.1f,%.5f,%.5f,%.2f,%llu,%zu\n", method, k, w.n,
                budget >> 20, r.inserts.seconds, r.mixed.seconds, w.n / r.mixed.seconds / 1e6,
                r.mixed.mib_moved, per_op, bound, per_op / bound,
                static_cast<unsigned long long>(r.answers), r.height);
    std::fflush(stdout);
}

//! The positive numbers of a comma-separated list; throws std::invalid_argument.
std::vector<std::size_t> numbers(const char* list) {
    std::vector<std::size_t> r;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        const std::size_t k =
            item.find_first_not_of("0123456789") == std::string::npos && !item.empty()
                ? std::stoul(item)
                : 0;
        if (k == 0)
            throw std::invalid_argument("\"" + std::string(list) +
                                        "\" is not a list of positive numbers");
        r.push_back(k);
    }
    return r;
}

bool same_answers(const char* method, const outcome& x, const outcome& tree) {
    if (x.answers == tree.answers) return true;
    std::fprintf(stderr, "dictionary_bench: %llu answers by %s, %llu by the tree\n",
                 static_cast<unsigned long long>(x.answers), method,
                 static_cast<unsigned long long>(tree.answers));
    return false;
}

int run(int argc, char** argv) {
    const std::size_t budget = (argc > 1 ? numbers(argv[1]).front() : 16) << 20;
    const std::vector<std::size_t> multiples = numbers(argc > 2 ? argv[2] : "4,16");
    const std::vector<std::size_t> fanouts = numbers(argc > 3 ? argv[3] : "8");
    emflow::ensure_external_memory();
    std::printf(
        "method,multiple,pairs,budget_mib,insert_seconds,mixed_seconds,mixed_mops_per_s,"
        "mixed_mib_moved,blocks_per_op,bound_blocks_per_op,ratio_to_bound,answers,height\n");
    for (std::size_t k : multiples) {
        const std::size_t n = k * budget / (2 * sizeof(u64));
        const workload w{n, 2 * u64(n), static_cast<unsigned>(k)};
        std::optional<outcome> first;
        for (std::size_t d : fanouts) {
            const outcome t = run_tree(w, budget, d);
            const std::string name = d == 8 ? "buffer_tree" : "buffer_tree_m/" + std::to_string(d);
            row(name.c_str(), k, budget, w, t);
            if (!first) first = t;
            if (!same_answers(name.c_str(), t, *first)) return 1;
        }
        for (std::size_t batches : {1, 4, 16}) {
            const outcome s = run_sort_merge(w, budget, batches);
            const std::string name =
                batches == 1 ? "sort_merge" : "sort_merge_" + std::to_string(batches) + "_batches";
            row(name.c_str(), k, budget, w, s);
            if (!same_answers(name.c_str(), s, *first)) return 1;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // a bad argument, or the disk or budget failing
        std::fprintf(stderr, "dictionary_bench: %s\n", e.what());
        return 2;
    }
}
