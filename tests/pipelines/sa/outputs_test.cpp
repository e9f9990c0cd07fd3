// SPDX-License-Identifier: BSL-1.0
// Outputs the constructions are not compiled for, erased into push sinks on the way to
// emflow::sa: a plain stxxl::vector (default blocks) from DC3, prefix doubling, eSAIS and
// build_suffix_array's widening path, a vector of wider integers than the indices, and eSAIS's
// suffix array into a push node beside its LCP array into a plain vector (and the other way
// round, also through build_suffix_and_lcp_arrays' widening path); each construction into plain
// vectors at the least budget it accepts (the vectors' writers fit in it). All give libdivsufsort's
// suffix array and Kasai's LCP array and leave no temp file.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <stxxl/vector>

#include <cstdint>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::MiB;

namespace {

//! v's values, widened.
template <class Vector>
std::vector<std::uint64_t> values(const Vector& v) {
    std::vector<std::uint64_t> x;
    for (typename Vector::bufreader_type r(v); !r.empty(); ++r) x.push_back(std::uint64_t(*r));
    return x;
}

//! Edge cases and two texts that recurse.
std::vector<emflow_test::named_text> texts() {
    const auto seed = emflow_test::test_seed();
    return {{"empty", {}},
            {"one byte", {0xFF}},
            {"random sigma 256", emflow_test::random_text(60000, 256, seed)},
            {"fibonacci", emflow_test::fibonacci_text(60000)}};
}

sa_options config(std::size_t memory) {
    sa_options cfg;
    cfg.memory_bytes = memory;
    return cfg;
}

}  // namespace

TEST_CASE("suffix arrays into a plain stxxl::vector", "[sa][outputs]") {
    auto& dir = emflow_test::configure_test_disks();
    for (const auto& t : texts()) {
        INFO(t.name);
        const auto open = [&] { return streamify(t.text); };
        const auto want = emflow_test::reference_sa(t.text);
        stxxl::vector<std::uint32_t> out;
        out.push_back(7);  // replaced
        dc3<std::uint32_t>(open, t.text.size(), out, config(32 * MiB));
        CHECK(values(out) == want);
        prefix_doubling<std::uint32_t>(open, t.text.size(), out, config(32 * MiB), 4);
        CHECK(values(out) == want);
        esais<std::uint32_t>(open, t.text.size(), out, config(32 * MiB));
        CHECK(values(out) == want);
        stxxl::vector<std::uint64_t> converted;  // 32-bit indices into a vector of 64
        dc3<std::uint32_t>(open, t.text.size(), converted, config(32 * MiB));
        CHECK(values(converted) == want);
        stxxl::vector<emflow_test::index64> wide;  // 32-bit construction, widened
        build_suffix_array<emflow_test::index64>(sa_algorithm::doubling, open, t.text.size(), wide,
                                                 config(32 * MiB));
        CHECK(values(wide) == want);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("eSAIS with one output pushed and the other into a plain stxxl::vector",
          "[sa][outputs][lcp]") {
    auto& dir = emflow_test::configure_test_disks();
    for (const auto& t : texts()) {
        INFO(t.name);
        const auto open = [&] { return streamify(t.text); };
        const auto want_sa = emflow_test::reference_sa(t.text);
        const auto want_lcp = emflow_test::reference_lcp(t.text, want_sa);
        std::vector<std::uint64_t> pushed;
        bool stopped = false;
        emflow_test::collect_sink<std::uint32_t> sink{&pushed, &stopped};
        stxxl::vector<std::uint32_t> vec;
        esais<std::uint32_t>(open, t.text.size(), sink, vec, config(32 * MiB));
        CHECK(stopped);
        CHECK(pushed == want_sa);
        CHECK(values(vec) == want_lcp);

        pushed.clear();
        stopped = false;
        sa_vector<std::uint32_t> sa;  // the compiled vector type beside a push node
        esais<std::uint32_t>(open, t.text.size(), sa, sink, config(32 * MiB));
        CHECK(stopped);
        CHECK(values(sa) == want_sa);
        CHECK(pushed == want_lcp);

        pushed.clear();
        stopped = false;
        emflow_test::collect_sink<emflow_test::index64> wide_sink{&pushed, &stopped};
        stxxl::vector<emflow_test::index64> wide;  // 32-bit construction, each output widened
        build_suffix_and_lcp_arrays<emflow_test::index64>(open, t.text.size(), wide, wide_sink,
                                                          config(32 * MiB));
        CHECK(stopped);
        CHECK(values(wide) == want_sa);
        CHECK(pushed == want_lcp);
    }
    CHECK(dir.entries() == 0);
}

namespace {

//! The least budget a construction accepts, read from the config_error a 1-byte budget gives
//! ("at least 16.0 MiB, 16777216 bytes"; doubling's: "at least 7340032 bytes").
template <class Construct>
std::size_t accepted_least(Construct&& construct) {
    try {
        construct(config(1));
    } catch (const config_error& e) {
        const std::string what = e.what();
        const auto at = what.find("at least ");
        REQUIRE(at != std::string::npos);
        const auto bytes = what.find(" MiB, ", at);
        return std::stoull(what.substr(bytes == std::string::npos ? at + 9 : bytes + 6));
    }
    FAIL("a 1-byte budget was accepted");
    return 0;
}

}  // namespace

TEST_CASE("plain stxxl::vector outputs at the least budget the constructions accept",
          "[sa][outputs][memory]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto t = emflow_test::random_text(200000, 4, emflow_test::test_seed());
    const auto open = [&] { return streamify(t); };
    const auto want = emflow_test::reference_sa(t);
    stxxl::vector<std::uint32_t> out;
    const auto check_at_least = [&](const char* name, auto&& construct) {
        INFO(name);
        const std::size_t least = accepted_least(construct);
        INFO("least budget " << least);
        construct(config(least));
        CHECK(values(out) == want);
    };
    check_at_least("dc3", [&](const sa_options& c) { dc3<std::uint32_t>(open, t.size(), out, c); });
    check_at_least("doubling", [&](const sa_options& c) {
        prefix_doubling<std::uint32_t>(open, t.size(), out, c);
    });
    check_at_least("esais",
                   [&](const sa_options& c) { esais<std::uint32_t>(open, t.size(), out, c); });
    stxxl::vector<std::uint32_t> lcp;
    check_at_least("esais with the LCP array",
                   [&](const sa_options& c) { esais<std::uint32_t>(open, t.size(), out, lcp, c); });
    CHECK(values(lcp) == emflow_test::reference_lcp(t, want));
    // the widening path: the 32-bit construction writes both wide vectors in its own run
    stxxl::vector<emflow_test::index64> wide, wide_lcp;
    const auto widened = [&](const sa_options& c) {
        build_suffix_and_lcp_arrays<emflow_test::index64>(open, t.size(), wide, wide_lcp, c);
    };
    const std::size_t least = accepted_least(widened);
    INFO("least budget of the widening path " << least);
    widened(config(least));
    CHECK(values(wide) == want);
    CHECK(values(wide_lcp) == emflow_test::reference_lcp(t, want));
    CHECK(dir.entries() == 0);
}
