// SPDX-License-Identifier: BSL-1.0
// bench/buffer_tree/tree_sort_bench.cpp: the buffer tree paper's Figures 3 and 4 on this
// machine. Sorts random 8-byte keys of 1x..16x the budget with tree sort, emflow's sort node and
// stxxl::sorter side by side (time, disk volume), then sweeps the tree's fan-out b over
// m, m/2, ..., m/32 with a = b/4 and the root's fan-out b at one size (time, volume, block
// pushes). Each measurement is the run of median time of `repeats` runs, the three sorters
// interleaved. CSV on stdout.
//
//   tree_sort_bench [budget_mib=16] [multiples=1,2,4,8,16] [sweep_multiple=4] [repeats=5]
//   tree_sort_bench rss [budget_mib=16] [multiple=4]   (one tree sort, then its peak RSS)
#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/nodes/tree_sort.hpp>

#include <stxxl/sorter>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using u64 = std::uint64_t;
constexpr std::size_t block_bytes = std::size_t(64) << 10;

struct stxxl_order {
    bool operator()(u64 a, u64 b) const { return a < b; }
    u64 min_value() const { return 0; }
    u64 max_value() const { return std::numeric_limits<u64>::max(); }
};

//! Time, volume and extra counters of one sort.
struct measured {
    double seconds;
    emflow::io_volume io;
    std::uint64_t block_pushes = 0;
    std::size_t height = 0;
    emflow::buffer_tree_stats tree{};  //!< tree sort's counters (zero for the others)
};

//! Checks that out is in order and holds n items of checksum sum.
struct checker {
    u64 n = 0, sum = 0, last = 0;
    bool ordered = true;
    void add(u64 x) {
        ordered = ordered && (n == 0 || last <= x);
        last = x;
        ++n;
        sum += x;
    }
};

std::vector<u64> random_keys(std::size_t n, u64 seed) {
    std::mt19937_64 rng(seed);
    std::vector<u64> v(n);
    for (auto& x : v) x = rng();
    return v;
}

template <class F>
measured measure(const std::vector<u64>& v, F&& sort) {
    const u64 expect = [&] {
        u64 s = 0;
        for (u64 x : v) s += x;
        return s;
    }();
    checker c;
    const auto io0 = emflow::current_io_volume();
    const auto t0 = std::chrono::steady_clock::now();
    measured m{};
    sort(c, m);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto io1 = emflow::current_io_volume();
    m.io = {io1.bytes_read - io0.bytes_read, io1.bytes_written - io0.bytes_written};
    if (!c.ordered || c.n != v.size() || c.sum != expect)
        throw std::runtime_error("a sort gave a wrong result");
    return m;
}

measured tree_sort_run(const std::vector<u64>& v, std::size_t budget,
                       emflow::tree_sort_options opt) {
    return measure(v, [&](checker& c, measured& m) {
        emflow::tree_sorter_node<u64, std::less<u64>, block_bytes> s(std::less<u64>(), budget, opt);
        emflow::materialize(emflow::streamify(v), s);
        emflow::materialize(s, emflow::sink<u64>([&](u64 x) { c.add(x); }));
        m.tree = s.stats();
        m.block_pushes = m.tree.block_pushes;
        m.height = m.tree.height;
    });
}

measured sort_node_run(const std::vector<u64>& v, std::size_t budget) {
    return measure(v, [&](checker& c, measured&) {
        emflow::materialize(emflow::streamify(v) | emflow::sort(std::less<u64>(), budget),
                            emflow::sink<u64>([&](u64 x) { c.add(x); }));
    });
}

measured stxxl_sorter_run(const std::vector<u64>& v, std::size_t budget) {
    return measure(v, [&](checker& c, measured&) {
        stxxl::sorter<u64, stxxl_order> s(stxxl_order(), budget);
        for (u64 x : v) s.push(x);
        s.sort();
        for (; !s.empty(); ++s) c.add(*s);
    });
}

void row(const char* experiment, const char* sorter, std::size_t n, std::size_t budget,
         std::size_t b, const measured& m) {
    const auto& t = m.tree;  // the breakdown, in MiB of blocks
    const auto mib = [](std::uint64_t blocks) { return blocks * (block_bytes / 1024) / 1024.0; };
    const std::uint64_t pushed = t.pushed_internal + t.pushed_leaf_node;
    const double fill = pushed ? double(t.pushed_items) * sizeof(u64) / (pushed * block_bytes) : 0;
    std::printf(
        "%s,%s,%zu,%zu,%zu,%.3f,%.2f,%.1f,%.1f,%llu,%zu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.3f\n",
        experiment, sorter, n, budget >> 20, b, m.seconds, n / m.seconds / 1e6,
        m.io.bytes_read / 1048576.0, m.io.bytes_written / 1048576.0,
        static_cast<unsigned long long>(m.block_pushes), m.height, mib(t.pushed_internal),
        mib(t.pushed_leaf_node), mib(t.buffer_read), mib(t.leaf_written), mib(t.leaf_read),
        mib(t.blocks_read - t.buffer_read - t.leaf_read), fill);
    std::fflush(stdout);
}

//! The run of median time (an odd number of runs: one that happened).
measured median_run(std::vector<measured> runs) {
    std::sort(runs.begin(), runs.end(),
              [](const measured& x, const measured& y) { return x.seconds < y.seconds; });
    return runs[runs.size() / 2];
}

std::vector<std::size_t> parse_list(const std::string& s) {
    std::vector<std::size_t> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoul(item));
    return out;
}

//! Peak RSS of this process (getrusage), in MiB.
double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

//! `rss` mode: one tree sort of k * budget generated keys (no input vector in RAM), then the
//! process's peak RSS: what the "peak RSS within budget + 64 MiB" is about.
int rss_mode(std::size_t budget, std::size_t k) {
    checker c;
    const std::uint64_t n = k * budget / sizeof(u64);
    emflow::materialize(
        emflow::generate(n, [rng = std::mt19937_64(k)]() mutable { return rng(); }) |
            emflow::tree_sort(std::less<u64>(), budget),
        emflow::sink<u64>([&](u64 x) { c.add(x); }));
    if (!c.ordered || c.n != n) throw std::runtime_error("tree sort gave a wrong result");
    std::printf("tree_sort_rss,items=%llu,budget_mib=%zu,peak_rss_mib=%.1f\n",
                static_cast<unsigned long long>(n), budget >> 20, peak_rss_mib());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "rss") {
        emflow::ensure_external_memory();
        return rss_mode((argc > 2 ? std::stoul(argv[2]) : 16) << 20,
                        argc > 3 ? std::stoul(argv[3]) : 4);
    }
    const std::size_t budget = (argc > 1 ? std::stoul(argv[1]) : 16) << 20;
    const auto multiples = parse_list(argc > 2 ? argv[2] : "1,2,4,8,16");
    const std::size_t sweep = argc > 3 ? std::stoul(argv[3]) : 4;
    const std::size_t repeats = argc > 4 ? std::max<std::size_t>(1, std::stoul(argv[4])) : 5;
    emflow::ensure_external_memory();
    std::printf(
        "experiment,sorter,items,budget_mib,fanout_max,seconds,mitems_per_s,read_mib,"
        "written_mib,block_pushes,height,push_internal_mib,push_leaf_node_mib,buffer_read_mib,"
        "leaf_written_mib,leaf_read_mib,final_read_mib,push_fill\n");
    const std::size_t m = budget / block_bytes;
    for (std::size_t k : multiples) {
        const auto v = random_keys(k * budget / sizeof(u64), k);
        std::vector<measured> tree, node, sorter;  // interleaved: the same load for all three
        for (std::size_t r = 0; r < repeats; ++r) {
            tree.push_back(tree_sort_run(v, budget, {}));
            node.push_back(sort_node_run(v, budget));
            sorter.push_back(stxxl_sorter_run(v, budget));
        }
        row("size", "tree_sort", v.size(), budget, m / 8, median_run(tree));
        row("size", "sort_node", v.size(), budget, 0, median_run(node));
        row("size", "stxxl_sorter", v.size(), budget, 0, median_run(sorter));
    }
    const auto v = random_keys(sweep * budget / sizeof(u64), 99);
    for (std::size_t d : {1, 2, 4, 8, 16, 32}) {
        const std::size_t b = m / d;
        if (b < 4) continue;
        const emflow::tree_sort_options opt{b, std::max<std::size_t>(1, b / 4), 0, b};
        std::vector<measured> runs;
        for (std::size_t r = 0; r < repeats; ++r) runs.push_back(tree_sort_run(v, budget, opt));
        row("fanout", "tree_sort", v.size(), budget, b, median_run(runs));
    }
}
