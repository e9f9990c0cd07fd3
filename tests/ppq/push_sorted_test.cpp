// SPDX-License-Identifier: BSL-1.0
// push_sorted: runs already in pop order join the queue without a sort (long ones as internal
// arrays, short ones through the insertion heap), a run out of order is refused with the queue
// unchanged, and runs larger than the queue's RAM go to disk. The random mixes of
// differential_test use push_sorted too.
#include <catch2/catch.hpp>
#include <emflow/ppq.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

#include "ppq_reference.hpp"
#include "test_env.hpp"

using pq_t = emflow::parallel_priority_queue<std::uint64_t, std::greater<std::uint64_t>>;

namespace {

//! n random keys in pop order (ascending: the queue pops the least first).
std::vector<std::uint64_t> sorted_run(std::mt19937_64& rng, std::size_t n) {
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng() >> 8;
    std::sort(v.begin(), v.end());
    return v;
}

//! Pops everything in bulks of 1000.
std::vector<std::uint64_t> drain(pq_t& pq) {
    std::vector<std::uint64_t> all, out;
    while (!pq.empty()) {
        pq.bulk_pop(out, 1000);
        all.insert(all.end(), out.begin(), out.end());
    }
    return all;
}

}  // namespace

TEST_CASE("push_sorted: long runs become arrays unsorted, short ones go to the heap", "[ppq]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2, 8 << 20));
    const std::size_t heap = pq.layout().heap_items;
    std::vector<std::uint64_t> all;
    for (std::size_t n : {heap / 8, heap * 3, heap / 8 - 1, std::size_t(1), std::size_t(0)}) {
        auto run = sorted_run(rng, n);
        all.insert(all.end(), run.begin(), run.end());
        pq.push_sorted(std::move(run));
        CHECK(run.empty());  // taken over
    }
    for (int i = 0; i < 100; ++i) {
        all.push_back(rng() >> 8);
        pq.push(all.back());
    }
    CHECK(pq.stats().sorted_runs == 2);  // the two runs of at least an eighth of a heap
    CHECK(pq.size() == all.size());
    std::sort(all.begin(), all.end());
    CHECK(drain(pq) == all);
}

TEST_CASE("push_sorted refuses a run out of order and a call inside a phase", "[ppq]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));
    auto kept = sorted_run(rng, 5000);
    pq.push_sorted(std::vector<std::uint64_t>(kept));

    auto bad = sorted_run(rng, 5000);
    std::swap(bad[100], bad[4000]);
    const auto bad_copy = bad;
    CHECK_THROWS_AS(pq.push_sorted(std::move(bad)), std::invalid_argument);
    CHECK(bad == bad_copy);  // not taken
    auto short_bad = std::vector<std::uint64_t>{3, 2, 1};
    CHECK_THROWS_AS(pq.push_sorted(std::move(short_bad)), std::invalid_argument);

    pq.bulk_push_begin(10);
    CHECK_THROWS_AS(pq.push_sorted(sorted_run(rng, 10)), std::logic_error);
    pq.bulk_push_end();

    CHECK(pq.size() == kept.size());
    CHECK(drain(pq) == kept);  // the queue is usable and holds what it held
}

TEST_CASE("push_sorted: runs beyond the queue's RAM spill to disk, in any mix", "[ppq]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    pq_t pq(std::greater<std::uint64_t>(), ppq_test::tiny_config(2));  // 2 MiB
    std::vector<std::uint64_t> all;
    for (int round = 0; round < 12; ++round) {
        auto run = sorted_run(rng, 100000 + rng() % 200000);  // 0.8-2.4 MiB each
        all.insert(all.end(), run.begin(), run.end());
        pq.push_sorted(std::move(run));
        // pop some, as a pass between its pushes does
        std::vector<std::uint64_t> out;
        pq.bulk_pop(out, 50000);
        std::sort(all.begin(), all.end(), std::greater<>());
        REQUIRE(out.size() == 50000);
        for (std::uint64_t x : out) {
            REQUIRE(x == all.back());
            all.pop_back();
        }
    }
    const auto s = pq.stats();
    CHECK(s.flushes > 0);
    CHECK(s.sorted_runs == 12);
    std::sort(all.begin(), all.end());
    CHECK(drain(pq) == all);
}
