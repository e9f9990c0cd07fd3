// SPDX-License-Identifier: BSL-1.0
// The tuples a pass hands over, read back in position order (esais/position_runs.hpp): every
// tuple once and in order, with runs from one to hundreds and a merge budget from the least
// (merging the smallest runs first, in several passes) to one pass; the disk blocks go back after
// the merge, after an exception from the caller's function, when no merge ever started and when
// the disk runs full; it takes tuples again after a merge.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/detail/esais/position_runs.hpp>

#include <stxxl/bits/common/exceptions.h>
#include <stxxl/bits/mng/block_manager.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_env.hpp"

using emflow::pipelines::sa::detail::esais::pos_value;
using emflow::pipelines::sa::detail::esais::position_runs;

namespace {

using tuple = pos_value<std::uint32_t>;
using runs = position_runs<tuple>;

//! Disk bytes STXXL's block manager has handed out and not yet taken back.
std::uint64_t disk_in_use() {
    return stxxl::block_manager::get_instance()->get_current_allocation();
}

//! n tuples with the positions 0..n-1 in random order, each valued by its position's square.
std::vector<tuple> shuffled(std::uint32_t n, std::uint64_t seed) {
    std::vector<tuple> t(n);
    for (std::uint32_t k = 0; k < n; ++k) t[k] = {k, k * k};
    std::shuffle(t.begin(), t.end(), std::mt19937_64(seed));
    return t;
}

}  // namespace

TEST_CASE("position_runs: every tuple once, in position order", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    const std::uint64_t before = disk_in_use();
    for (std::size_t run_items : {std::size_t(1) << 20, std::size_t(5000), std::size_t(300)}) {
        for (std::size_t merge_bytes : {std::size_t(0), std::size_t(64) << 20}) {
            INFO("runs of " << run_items << ", merge in " << merge_bytes << " bytes");
            const std::uint32_t n = 100000;
            runs r(run_items);
            for (const tuple& x : shuffled(n, seed + run_items)) r.push(x);
            CHECK(r.size() == n);
            std::uint32_t next = 0;
            bool in_order = true;
            r.each(merge_bytes, [&](const tuple& x) {
                in_order = in_order && x.pos == next && x.value == next * next;
                ++next;
            });
            CHECK(in_order);
            CHECK(next == n);
            CHECK(disk_in_use() == before);
        }
    }
}

// A pass's waiting chains: a bucket's taken, read back, then the next bucket's into the same
// position_runs.
TEST_CASE("position_runs: takes tuples again after each()", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const std::uint64_t before = disk_in_use();
    runs r(300);
    const auto first = shuffled(1000, emflow_test::test_seed());
    for (const tuple& x : first) r.push(x);
    std::size_t seen = 0;
    r.each(0, [&](const tuple&) { ++seen; });
    CHECK(seen == 1000);
    CHECK(r.size() == 0);
    CHECK(disk_in_use() == before);
    // positions 5000.. this time: only they come back, in order
    for (const tuple& x : shuffled(700, emflow_test::test_seed() + 1))
        r.push({x.pos + 5000, x.value});
    CHECK(r.size() == 700);
    std::uint32_t next = 5000;
    bool in_order = true;
    r.each(0, [&](const tuple& x) { in_order = in_order && x.pos == next++; });
    CHECK(in_order);
    CHECK(next == 5700);
    CHECK(r.size() == 0);
    CHECK(disk_in_use() == before);
}

TEST_CASE("position_runs: nothing pushed", "[sa][esais]") {
    emflow_test::configure_test_disks();
    runs r(100);
    CHECK(r.size() == 0);
    std::size_t seen = 0;
    r.each(0, [&](const tuple&) { ++seen; });
    CHECK(seen == 0);
}

TEST_CASE("position_runs: the disk blocks go back on failure", "[sa][esais]") {
    emflow_test::configure_test_disks();
    const std::uint64_t before = disk_in_use();
    const auto tuples = shuffled(20000, emflow_test::test_seed());
    SECTION("the caller's function throws during the merge") {
        {
            runs r(700);
            for (const tuple& x : tuples) r.push(x);
            CHECK(disk_in_use() > before);
            std::size_t seen = 0;
            CHECK_THROWS_WITH(r.each(0,
                                     [&](const tuple&) {
                                         if (++seen == 5000) throw std::runtime_error("consumer");
                                     }),
                              "consumer");
        }
        CHECK(disk_in_use() == before);
    }
    SECTION("the pass fails before the merge") {
        {
            runs r(700);
            for (const tuple& x : tuples) r.push(x);
            CHECK(disk_in_use() > before);
        }
        CHECK(disk_in_use() == before);
    }
}

// A pass's bucket whose waiting chains take the disk's last blocks: with the least merge budget
// many runs merge in several passes, whose earlier passes write new runs. Ever more tuples on a
// disk of fixed size: the merges fail before the pushes do. A failing run gives stxxl::io_error
// from push() or each(), never a wrong or partial result taken for a whole one, and its blocks go
// back, so the disk takes the next run.
TEST_CASE("position_runs: a disk that runs full in the merge", "[sa][esais]") {
    emflow::external_memory_options em;
    em.disks = {emflow::disk_spec{4 << 20}};
    emflow_test::configure_test_disks(em);
    const std::uint64_t before = disk_in_use();
    const auto seed = emflow_test::test_seed();
    enum class outcome { whole, failed_in_merge, failed_in_push };
    // n tuples in runs of about 1.2 blocks (the merge's passes write new runs), read back
    const auto attempt = [&](std::uint32_t n) {
        INFO(n << " tuples");
        runs r(40000);
        try {
            for (const tuple& x : shuffled(n, seed + n)) r.push(x);
        } catch (const stxxl::io_error& e) {
            CHECK_THAT(e.what(), Catch::Contains("File too large"));
            return outcome::failed_in_push;
        }
        std::uint32_t next = 0;
        bool in_order = true;
        try {
            r.each(0, [&](const tuple& x) {
                in_order = in_order && x.pos == next && x.value == next * next;
                ++next;
            });
        } catch (const stxxl::io_error& e) {
            CHECK_THAT(e.what(), Catch::Contains("File too large"));
            CHECK(in_order);  // what came out before the failure was right
            CHECK(next < n);
            return outcome::failed_in_merge;
        }
        CHECK(in_order);
        CHECK(next == n);
        return outcome::whole;
    };
    std::vector<outcome> outcomes;  // of 40000, 80000, ... tuples
    do {
        REQUIRE(outcomes.size() < 50);  // 2 M tuples, 16 MiB: far past the disk
        outcomes.push_back(attempt(40000 * std::uint32_t(outcomes.size() + 1)));
        CHECK(disk_in_use() == before);
    } while (outcomes.back() != outcome::failed_in_push);
    CHECK(std::count(outcomes.begin(), outcomes.end(), outcome::failed_in_merge) > 0);
    // the disk is whole again: the most tuples that fit do so once more
    const auto last_whole = std::find(outcomes.rbegin(), outcomes.rend(), outcome::whole);
    REQUIRE(last_whole != outcomes.rend());
    CHECK(attempt(40000 * std::uint32_t(outcomes.rend() - last_whole)) == outcome::whole);
    CHECK(disk_in_use() == before);
}
