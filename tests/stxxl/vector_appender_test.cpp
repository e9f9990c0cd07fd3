// SPDX-License-Identifier: BSL-1.0
// emflow::vector_appender: the vector holds exactly what was appended (lengths around block and
// page boundaries, pages of one and of two blocks, read back through the vector's cache and a
// stream), and a full disk is an exception from the appender's calls, also while another
// exception unwinds past a writer with writes under way, never std::terminate; no file is left.
#include <emflow/vector_appender.hpp>

#include <catch2/catch.hpp>
#include <stxxl/vector>

#include <cstdint>
#include <stdexcept>

#include "test_env.hpp"

namespace {

constexpr unsigned block_bytes = 4096;  // 512 items of 8 bytes

//! Appends n items to v and checks them through its cache and through a bufreader.
template <class Vector>
void round_trip(Vector& v, std::uint64_t n) {
    emflow::vector_appender<Vector> w(v);
    for (std::uint64_t i = 0; i < n; ++i) w << i * 2654435761u;
    w.finish();
    REQUIRE(v.size() == n);
    std::uint64_t i = 0;
    for (typename Vector::bufreader_type r(v); !r.empty(); ++r, ++i)
        if (*r != i * 2654435761u) FAIL("item " << i);
    for (std::uint64_t k = 0; k < n; k += 97) CHECK(std::uint64_t(v[k]) == k * 2654435761u);
    if (n > 0) CHECK(std::uint64_t(v[n - 1]) == (n - 1) * 2654435761u);
}

}  // namespace

TEST_CASE("vector_appender writes exactly what was appended", "[stxxl][vector_appender]") {
    auto& dir = emflow_test::configure_test_disks();
    {
        stxxl::VECTOR_GENERATOR<std::uint64_t, 2, 2, block_bytes>::result two;
        stxxl::VECTOR_GENERATOR<std::uint64_t, 1, 2, block_bytes>::result one;
        for (std::uint64_t n : {0, 1, 511, 512, 513, 1024, 1025, 5000, 100000}) {
            INFO(n << " items");
            round_trip(two, n);  // replaces the last contents
            round_trip(one, n);
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("vector_appender on a full disk throws, also while unwinding",
          "[stxxl][vector_appender]") {
    emflow::external_memory_options cfg;
    cfg.disks = {emflow::disk_spec{1u << 20}};
    auto& dir = emflow_test::configure_test_disks(cfg);
    using vector = stxxl::VECTOR_GENERATOR<std::uint64_t, 2, 2, block_bytes>::result;
    {
        vector v;
        emflow::vector_appender<vector> w(v);
        CHECK_THROWS_WITH(
            [&] {
                for (std::uint64_t i = 0; i < (4u << 20) / 8; ++i) w << i;
                w.finish();
            }(),
            Catch::Contains("File too large"));
    }
    {
        // Another error unwinds past the writer while its write of the block past the disk's end
        // is under way (the blocks before it fit: their writes succeeded).
        vector v;
        CHECK_THROWS_WITH(
            [&] {
                emflow::vector_appender<vector> w(v);
                for (std::uint64_t i = 0; i < ((1u << 20) / block_bytes + 1) * 512; ++i) w << i;
                throw std::runtime_error("elsewhere");
            }(),
            "elsewhere");
    }
    CHECK(dir.entries() == 0);
}
