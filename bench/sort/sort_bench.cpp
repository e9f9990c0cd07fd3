// SPDX-License-Identifier: BSL-1.0
// bench/sort/sort_bench.cpp: the PPQ's run sort (emflow's block quicksort, sequential and
// parallel) against std::sort and tbb::parallel_sort, side by side on the same inputs.
//
//   sort_bench [--items N[,N...]] [--threads P] [--repeat R] [--item-bytes 8|24]
//
// Items are sorted in the PPQ's pop order of a min-queue (key descending in the array, as
// algorithm::pop_order<std::greater<>> sorts them). Inputs: random keys, ascending, descending,
// few distinct (16 keys). Prints CSV: impl, pattern, items, item_bytes, threads, seconds (the
// median of R runs), items_per_s; every result is checked against std::sort's.
#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>

#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct item_8 {
    std::uint64_t key;
};
struct item_24 {
    std::uint64_t key;
    std::uint64_t payload[2];
};
//! Min-queue order as the PPQ uses it: greater keys first in a sorted run.
struct min_queue_greater {
    template <class T>
    bool operator()(const T& a, const T& b) const {
        return a.key > b.key;
    }
};
using order = emflow::algorithm::pop_order<min_queue_greater>;

const char* const patterns[] = {"random", "ascending", "descending", "few-distinct"};

template <class T>
std::vector<T> make_input(const std::string& pattern, std::size_t n) {
    std::mt19937_64 rng(42);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t k = pattern == "random"       ? rng()
                          : pattern == "ascending"  ? i
                          : pattern == "descending" ? n - i
                                                    : rng() % 16;
        std::memset(&v[i], 0, sizeof(T));
        v[i].key = k;
    }
    return v;
}

template <class T>
bool same_keys(const std::vector<T>& a, const std::vector<T>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].key != b[i].key) return false;
    return true;
}

template <class T>
void run(std::size_t n, unsigned threads, int repeat) {
    tbb::task_arena arena{int(threads)};
    const std::vector<std::pair<const char*, std::function<void(T*, T*)>>> impls = {
        {"std_sort", [](T* f, T* l) { std::sort(f, l, order{}); }},
        {"block_quicksort", [](T* f, T* l) { emflow::algorithm::block_quicksort(f, l, order{}); }},
        {"tbb_parallel_sort",
         [&](T* f, T* l) { arena.execute([&] { tbb::parallel_sort(f, l, order{}); }); }},
        {"parallel_block_quicksort", [&](T* f, T* l) {
             arena.execute(
                 [&] { emflow::algorithm::parallel_block_quicksort(f, l, order{}, threads); });
         }}};
    for (const char* pattern : patterns) {
        const std::vector<T> input = make_input<T>(pattern, n);
        std::vector<T> expected = input;
        std::sort(expected.begin(), expected.end(), order{});
        for (auto& [name, sort] : impls) {
            std::vector<double> secs;
            for (int r = 0; r < repeat; ++r) {
                std::vector<T> v = input;
                auto t0 = std::chrono::steady_clock::now();
                sort(v.data(), v.data() + v.size());
                secs.push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                if (!same_keys(v, expected))
                    throw std::runtime_error(std::string(name) + " sorted wrongly");
            }
            std::sort(secs.begin(), secs.end());
            const double s = secs[secs.size() / 2];
            std::printf("%s,%s,%zu,%zu,%u,%.4f,%.0f\n", name, pattern, n, sizeof(T), threads, s,
                        double(n) / s);
            std::fflush(stdout);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes = {std::size_t(1) << 20, std::size_t(1) << 25};
    unsigned threads = 2;
    int repeat = 3;
    std::size_t item_bytes = 8;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr,
                         "usage: sort_bench [--items N[,N...]] [--threads P] "
                         "[--repeat R] [--item-bytes 8|24]\n");
            return 2;
        }
        std::string v = argv[++i];
        if (a == "--items") {
            sizes.clear();
            std::stringstream ss(v);
            for (std::string s; std::getline(ss, s, ',');) sizes.push_back(std::stoull(s));
        } else if (a == "--threads") {
            threads = unsigned(std::stoul(v));
        } else if (a == "--repeat") {
            repeat = std::stoi(v);
        } else if (a == "--item-bytes") {
            item_bytes = std::stoul(v);
        } else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    std::printf("impl,pattern,items,item_bytes,threads,seconds,items_per_s\n");
    for (std::size_t n : sizes) {
        if (item_bytes == 24)
            run<item_24>(n, threads, repeat);
        else
            run<item_8>(n, threads, repeat);
    }
}
