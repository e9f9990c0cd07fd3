// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/nodes/take.hpp: the first k elements of sources of every length, k around
// the source's length and its batches, and that take reads nothing of its source past them.
#include <emflow/flow.hpp>
#include <emflow/nodes/take.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "node_test_util.hpp"
#include "test_env.hpp"

using u64 = std::uint64_t;

TEST_CASE("take emits the first k elements, then is empty", "[take]") {
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : emflow_test::test_sizes(rng)) {
        const std::vector<u64> v = emflow_test::random_values(rng, n);
        for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(n / 2),
                                std::uint64_t(n), std::uint64_t(n + 1), ~std::uint64_t(0)}) {
            INFO(n << " elements, k " << k);
            const std::vector<u64> expect(v.begin(),
                                          v.begin() + std::ptrdiff_t(std::min<u64>(k, n)));
            auto src = emflow::streamify(v) | emflow::take(k);
            CHECK(emflow_test::drain_mixed(src, rng, 3000) == expect);
            std::vector<u64> got;
            emflow::materialize(emflow::head(emflow::streamify(v), k), std::back_inserter(got));
            CHECK(got == expect);
        }
    }
}

namespace {

//! 0, 1, 2, ... without end, one element per batch, counting the elements passed.
struct counting {
    using value_type = u64;
    u64 passed = 0;
    void start(emflow::run_context&) {}
    bool empty() const { return false; }
    u64 operator*() const { return passed; }
    counting& operator++() { return *this += 1; }
    std::size_t batch_length() const { return 1; }
    const u64* batch_begin() const { return &passed; }
    counting& operator+=(std::size_t n) {
        passed += n;
        return *this;
    }
};

}  // namespace

TEST_CASE("take passes no element of its source past the k-th", "[take]") {
    for (std::uint64_t k : {0u, 1u, 1234u}) {
        counting src;
        std::vector<u64> got;
        emflow::materialize(src | emflow::take(k), std::back_inserter(got));
        CHECK(got.size() == k);
        CHECK(src.passed == k);
    }
}
