// SPDX-License-Identifier: BSL-1.0
// Faults under 1-4 ranks: an exception on one rank (a throwing source, throwing user code in
// rank_of, a failing output) ends the exchange and the distributed sort on every rank with that
// error (the original on its rank, a remote_error naming the rank elsewhere), without a hang;
// afterwards MPI still works and no temp file is left. CTest's timeout catches a hang.
#include <catch2/catch.hpp>

#include "mpi_test_env.hpp"

#include <emflow/flow.hpp>
#include <emflow/mpi/distributed_sort.hpp>
#include <emflow/mpi/exchange.hpp>

#include <stxxl/vector>

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

using namespace emflow;
using emflow_mpi_test::world;
using less_u64 = std::less<std::uint64_t>;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t budget = 4 << 20;

//! Runs f on every rank and checks that it throws everywhere: on rank origin its own error
//! (containing text), elsewhere a remote_error naming origin and carrying that text.
template <class F>
void expect_failure_from(int origin, const std::string& text, F&& f) {
    bool threw = false;
    try {
        f();
    } catch (const mpi::remote_error& e) {
        threw = true;
        INFO(e.what());
        CHECK(world().rank() != origin);
        CHECK(e.origin() == origin);
        CHECK(e.message().find(text) != std::string::npos);
    } catch (const std::exception& e) {
        threw = true;
        INFO(e.what());
        CHECK(world().rank() == origin);
        CHECK(std::string(e.what()).find(text) != std::string::npos);
    }
    CHECK(threw);
}

//! n items of this rank; the source throws at item fail_at on rank origin.
auto failing_source(u64 n, int origin, u64 fail_at) {
    int rank = world().rank();
    return generate(n, [i = u64(0), rank, origin, fail_at]() mutable {
        if (rank == origin && i == fail_at) throw std::runtime_error("source failed on purpose");
        return u64(i++ * 0x9E3779B97F4A7C15ull) >> 1;
    });
}

//! An output iterator that throws after limit items.
struct failing_output {
    using iterator_category = std::output_iterator_tag;
    using value_type = void;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = void;

    u64* written;
    u64 limit;
    failing_output& operator*() { return *this; }
    failing_output& operator++() { return *this; }
    failing_output operator++(int) { return *this; }
    failing_output& operator=(u64) {
        if (++*written > limit) throw std::runtime_error("output failed on purpose");
        return *this;
    }
};

//! MPI and the exchange still work: a small all-to-all exchange succeeds.
void check_still_working() {
    int p = world().size();
    mpi::exchange<u64> x(world());
    std::vector<u64> got;
    materialize(mpi::route(generate(1000, [i = u64(0)]() mutable { return i++; }), x,
                           [p](u64 v) { return int(v % u64(p)); }),
                std::back_inserter(got));
    CHECK(world().allreduce_sum(got.size()) == 1000u * u64(p));
}

}  // namespace

TEST_CASE("faults: a throwing source on the last rank ends the exchange everywhere", "[faults]") {
    auto& dir = emflow_mpi_test::configure_rank_disks();
    int p = world().size();
    expect_failure_from(p - 1, "source failed on purpose", [&] {
        mpi::exchange<u64> x(world());
        std::vector<u64> got;
        materialize(mpi::route(failing_source(200000, p - 1, 50000), x,
                               [p](u64 v) { return int(v % u64(p)); }),
                    std::back_inserter(got));
    });
    check_still_working();
    CHECK(dir.entries() == 0);
}

TEST_CASE("faults: rank_of throwing on rank 0 ends the exchange everywhere", "[faults]") {
    emflow_mpi_test::configure_rank_disks();
    int p = world().size(), rank = world().rank();
    expect_failure_from(0, "rank_of failed on purpose", [&] {
        mpi::exchange<u64> x(world());
        std::vector<u64> got;
        auto rank_of = [p, rank, n = u64(0)](u64 v) mutable {
            if (rank == 0 && ++n == 70000) throw std::invalid_argument("rank_of failed on purpose");
            return int(v % u64(p));
        };
        materialize(
            mpi::route(failing_source(100000, -1, 0), x, rank_of) | sort(less_u64{}, budget),
            std::back_inserter(got));
    });
    check_still_working();
}

TEST_CASE("faults: the distributed sort fails everywhere when one rank fails", "[faults]") {
    auto& dir = emflow_mpi_test::configure_rank_disks();
    int p = world().size();
    stxxl::VECTOR_GENERATOR<u64>::result out;
    SECTION("in the sampling pass, on rank 0") {
        expect_failure_from(0, "source failed on purpose", [&] {
            mpi::distributed_sort(
                world(), [&] { return failing_source(100000, 0, 1234); }, out, less_u64{}, budget);
        });
    }
    SECTION("in the exchange pass, on the last rank") {
        int calls = 0;
        expect_failure_from(p - 1, "source failed on purpose", [&] {
            mpi::distributed_sort(
                world(), [&] { return failing_source(300000, ++calls == 2 ? p - 1 : -1, 250000); },
                out, less_u64{}, budget);
        });
    }
    SECTION("writing the output, on rank 0") {
        u64 written = 0;
        failing_output fail{&written, 1000};
        expect_failure_from(0, "output failed on purpose", [&] {
            mpi::distributed_sort(
                world(), [&] { return failing_source(100000, -1, 0); }, fail, less_u64{}, budget);
        });
    }
    check_still_working();
    out.clear();
    CHECK(dir.entries() == 0);
}
