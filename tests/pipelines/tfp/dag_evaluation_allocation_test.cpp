// Tests of emflow/pipelines/tfp/dag_evaluation.hpp when RAM runs out: a failed allocation
// anywhere in the evaluation (window arrays, the queue's arrays and heaps, its background
// tasks, the parallel evaluation of a level) reaches the caller as std::bad_alloc, leaves no temp
// file, and the next evaluation runs normally. A binary of its own: it replaces the global
// operator new, which can make the k-th large request of a run, and every one after it, fail.
#include <emflow/pipelines/tfp/dag_evaluation.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "test_env.hpp"
#include "tfp/random_dag.hpp"
#include "tfp/reference_evaluation.hpp"

namespace {

//! Requests from this size on are large: the queue's blocks, heaps and arrays, the window's
//! arrays, the vectors' buffers.
constexpr std::size_t large = std::size_t(64) << 10;
//! Large requests so far.
std::atomic<long> large_requests{0};
//! How many more large requests succeed (-1: all); at 0 every large request fails.
std::atomic<long> large_left{-1};

//! malloc, failing as armed for large requests.
void* allocate(std::size_t n) {
    if (n >= large) {
        ++large_requests;
        long left = large_left.load();
        while (left > 0 && !large_left.compare_exchange_weak(left, left - 1)) {
        }
        if (left == 0) return nullptr;
    }
    return std::malloc(n ? n : 1);
}

}  // namespace

// Every form that pairs with the deletes below (a sanitizer's own forms would not pair with
// free); g++ takes free() inside a replacement operator delete for a mismatch with new.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
    if (void* p = allocate(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace tfp = emflow::pipelines::tfp;

TEST_CASE("a failed allocation during the evaluation reaches the caller as std::bad_alloc",
          "[tfp][errors]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        tfp::dag_spec spec;
        spec.shape = tfp::dag_shape::random;  // long edges: the queue spills to disk
        spec.nodes = 300000;
        spec.degree = 3;
        tfp::node_vector inputs;
        tfp::edge_vector edges;
        tfp::generate_dag(spec, emflow_test::test_seed(), inputs, edges);
        const auto expected = tfp::reference_evaluation(inputs, edges);
        for (const bool budget : {false, true}) {
            tfp::evaluation_config cfg;
            cfg.queue.num_threads = 2;
            if (budget) {
                cfg.memory_bytes = 48u << 20;
            } else {
                cfg.queue.memory_bytes = 8u << 20;
                cfg.max_window = 1u << 16;
            }
            // a run without failures counts its large requests; then the first, and one an
            // eighth, a quarter and half way into them fails
            long total = 0;
            {
                emflow::adaptive_window w(tfp::default_target_bulk(cfg));
                tfp::value_vector values;
                large_requests = 0;
                tfp::evaluate_dag(inputs, edges, values, w, cfg);
                total = large_requests;
            }
            INFO("budget " << budget << ": " << total << " large requests");
            REQUIRE(total >= 16);
            for (const long k : {0L, total / 8, total / 4, total / 2}) {
                INFO("request " << k << " fails");
                emflow::adaptive_window w(tfp::default_target_bulk(cfg));
                tfp::value_vector values;
                large_left = k;
                CHECK_THROWS_AS(tfp::evaluate_dag(inputs, edges, values, w, cfg), std::bad_alloc);
                large_left = -1;
            }
            emflow::adaptive_window w(tfp::default_target_bulk(cfg));
            tfp::value_vector values;
            tfp::evaluate_dag(inputs, edges, values, w, cfg);
            REQUIRE(values.size() == expected.size());
            std::uint64_t i = 0;
            for (auto it = values.cbegin(); it != values.cend(); ++it, ++i) {
                INFO("node " << i);
                REQUIRE(*it == expected[i]);
            }
        }
    }
    CHECK(dir.entries() == 0);
}
