// SPDX-License-Identifier: BSL-1.0
// Ten million items through stxxl::vector and stxxl::sorter under a small memory limit, on the
// disks emflow configures: order, count and checksum verified, no temp file left.
#include <catch2/catch.hpp>
#include <stxxl/sorter>
#include <stxxl/vector>

#include <random>

#include "test_env.hpp"

namespace {

struct u64_order {
    bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
    std::uint64_t min_value() const { return 0; }
    std::uint64_t max_value() const { return ~std::uint64_t(0); }
};

//! Order-independent checksum: sum and xor of a mixing function.
struct checksum {
    std::uint64_t sum = 0, x = 0;
    void add(std::uint64_t v) {
        std::uint64_t h = (v ^ (v >> 31)) * 0x7FB5D329728EA185ull;
        sum += h;
        x ^= h;
    }
    bool operator==(const checksum& o) const { return sum == o.sum && x == o.x; }
};

}  // namespace

TEST_CASE("10M items through stxxl::vector and stxxl::sorter with 16 MiB", "[stxxl]") {
    auto& dir = emflow_test::configure_test_disks();
    constexpr std::uint64_t n = 10'000'000;
    std::mt19937_64 rng(emflow_test::test_seed());

    // 4 pages of 4 blocks of 1 MiB: the vector holds at most 16 MiB in RAM.
    stxxl::VECTOR_GENERATOR<std::uint64_t, 4, 4, 1024 * 1024>::result input;
    checksum in_sum;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint64_t v = rng() % (n / 2);  // duplicates on purpose
        input.push_back(v);
        in_sum.add(v);
    }
    REQUIRE(input.size() == n);
    REQUIRE(emflow::current_io_volume().bytes_written > 0);

    stxxl::sorter<std::uint64_t, u64_order> sorter(u64_order(), 16u << 20);
    checksum reread;
    for (auto it = input.cbegin(); it != input.cend(); ++it) {
        reread.add(*it);
        sorter.push(*it);
    }
    REQUIRE(reread == in_sum);
    sorter.sort();

    stxxl::VECTOR_GENERATOR<std::uint64_t, 4, 4, 1024 * 1024>::result output;
    checksum out_sum;
    std::uint64_t count = 0, prev = 0;
    bool ordered = true;
    for (; !sorter.empty(); ++sorter, ++count) {
        if (count && *sorter < prev) ordered = false;
        prev = *sorter;
        out_sum.add(prev);
        output.push_back(prev);
    }
    CHECK(ordered);
    CHECK(count == n);
    CHECK(out_sum == in_sum);
    CHECK(output.size() == n);
    CHECK(dir.entries() == 0);
}
