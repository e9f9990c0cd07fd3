// SPDX-License-Identifier: BSL-1.0
// Streaming overhead: four scanning nodes (transform, transform, filter, transform) over 2^k 64-bit
// items in RAM, consumed batch-wise and element-wise, against the same work as one hand-written
// loop. Variants alternate, each repeated; prints CSV rows:
// bench,variant,items,seconds,speed_vs_loop
//
//   flow_streaming [log2 items = 28] [repetitions = 3]
#include <emflow/flow.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace emflow;
using u64 = std::uint64_t;

namespace {

inline u64 f1(u64 x) { return x * 0x9E3779B97F4A7C15ull + 1; }
inline u64 f2(u64 x) { return x ^ (x >> 29); }
inline bool keep(u64 x) { return (x & 3) != 0; }
inline u64 f3(u64 x) { return x + (x >> 3); }

template <class F>
double timed(F&& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const int log_n = argc > 1 ? std::atoi(argv[1]) : 28;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::size_t n = std::size_t(1) << log_n;
    std::vector<u64> v(n);
    std::iota(v.begin(), v.end(), u64(12345));

    u64 expect = 0;
    auto hand = [&] {
        u64 s = 0;
        for (std::size_t i = 0; i < n; ++i) {
            u64 y = f2(f1(v[i]));
            if (keep(y)) s += f3(y);
        }
        expect = s;
    };
    auto graph = [&] {
        return streamify(v) | transform([](u64 x) { return f1(x); }) |
               transform([](u64 x) { return f2(x); }) | filter([](u64 x) { return keep(x); }) |
               transform([](u64 x) { return f3(x); });
    };
    auto batch = [&] {
        u64 s = 0;
        auto g = graph();
        run_graph([&](run_context& ctx) { g.start(ctx); },
                  [&](run_context&) {
                      while (!g.empty()) {
                          std::size_t k = g.batch_length();
                          auto b = g.batch_begin();
                          for (std::size_t i = 0; i < k; ++i) s += b[i];
                          g += k;
                      }
                  });
        if (s != expect) std::abort();
    };
    auto element = [&] {
        u64 s = 0;
        auto g = graph();
        run_graph([&](run_context& ctx) { g.start(ctx); },
                  [&](run_context&) {
                      for (; !g.empty(); ++g) s += *g;
                  });
        if (s != expect) std::abort();
    };
    hand();  // warm up and reference result
    std::vector<double> t_hand, t_batch, t_elem;
    for (int r = 0; r < reps; ++r) {
        t_hand.push_back(timed(hand));
        t_batch.push_back(timed(batch));
        t_elem.push_back(timed(element));
    }
    auto median = [](std::vector<double> x) {
        std::sort(x.begin(), x.end());
        return x[x.size() / 2];
    };
    double h = median(t_hand), b = median(t_batch), e = median(t_elem);
    std::printf("bench,variant,items,seconds,speed_vs_loop\n");
    std::printf("streaming,hand_loop,%zu,%.4f,1.000\n", n, h);
    std::printf("streaming,batch,%zu,%.4f,%.3f\n", n, b, h / b);
    std::printf("streaming,element,%zu,%.4f,%.3f\n", n, e, h / e);
    return 0;
}
