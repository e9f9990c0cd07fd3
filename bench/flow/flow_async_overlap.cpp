// SPDX-License-Identifier: BSL-1.0
// Async overlap: two equally CPU-heavy segments (a generator with mixing, a mixing transform)
// joined directly or through an async pull node; same output checked. Prints CSV rows:
// bench,variant,items,buffer,seconds,speedup
//
//   flow_async_overlap [log2 items = 24] [buffer elements = 65536] [repetitions = 3]
#include <emflow/flow.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace emflow;
using u64 = std::uint64_t;

namespace {

//! About 100 ns of dependent arithmetic.
inline u64 heavy(u64 x) {
    for (int i = 0; i < 24; ++i) x = (x ^ (x >> 31)) * 0x7FB5D329728EA185ull + i;
    return x;
}

//! Push sink summing its input. (A tap in front of a push sink would evaluate the lazy transform
//! twice, once for the tap and once for the sink, making the second segment twice as heavy.)
struct sum_sink {
    using value_type = u64;
    u64* sum;
    void start(run_context&) {}
    void push(u64 x) { *sum += x; }
    void push_batch(const u64* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) *sum += p[i];
    }
    void push_stop() {}
};

double run(bool async, std::size_t n, std::size_t buffer, u64& result) {
    auto first = generate(n, [i = u64(0)]() mutable { return heavy(i++); });
    u64 s = 0;
    auto t0 = std::chrono::steady_clock::now();
    if (async) {
        materialize(std::move(first) | async_pull(elements(buffer)) |
                        transform([](u64 x) { return heavy(x); }),
                    sum_sink{&s});
    } else {
        materialize(std::move(first) | transform([](u64 x) { return heavy(x); }), sum_sink{&s});
    }
    result = s;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = std::size_t(1) << (argc > 1 ? std::atoi(argv[1]) : 24);
    const std::size_t buffer = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 65536;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    std::vector<double> t_sync, t_async;
    u64 r1 = 0, r2 = 0;
    for (int r = 0; r < reps; ++r) {
        t_sync.push_back(run(false, n, buffer, r1));
        t_async.push_back(run(true, n, buffer, r2));
        if (r1 != r2) std::abort();
    }
    std::sort(t_sync.begin(), t_sync.end());
    std::sort(t_async.begin(), t_async.end());
    double s = t_sync[reps / 2], a = t_async[reps / 2];
    std::printf("bench,variant,items,buffer,seconds,speedup\n");
    std::printf("async_overlap,no_async,%zu,%zu,%.4f,1.000\n", n, buffer, s);
    std::printf("async_overlap,async_pull,%zu,%zu,%.4f,%.3f\n", n, buffer, a, s / a);
    // Runtime overhead: a trivial stream through one async pull node, per buffer size
    // (seconds = ns per element here, speedup = relative to the same chain without the node).
    auto trivial = [&](std::size_t buf) {
        const std::size_t m = buf && buf < 256 ? std::size_t(1) << 16 : std::size_t(1) << 22;
        u64 sum = 0;
        auto src = generate(m, [i = u64(0)]() mutable { return i++; });
        auto t0 = std::chrono::steady_clock::now();
        if (buf)
            materialize(
                std::move(src) | async_pull(elements(buf)) | tap([&sum](u64 x) { sum += x; }),
                count_sink<u64>());
        else
            materialize(std::move(src) | tap([&sum](u64 x) { sum += x; }), count_sink<u64>());
        if (sum != u64(m) * (m - 1) / 2) std::abort();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e9 /
               m;
    };
    double base = trivial(0);
    std::printf("async_overhead,no_async,%zu,0,%.3f,1.000\n", std::size_t(1) << 22, base);
    for (std::size_t buf : {std::size_t(1), std::size_t(16), std::size_t(256), std::size_t(4096),
                            std::size_t(65536)}) {
        double ns = trivial(buf);
        std::printf("async_overhead,async_pull,%zu,%zu,%.3f,%.3f\n",
                    buf < 256 ? std::size_t(1) << 16 : std::size_t(1) << 22, buf, ns, base / ns);
    }
    return 0;
}
