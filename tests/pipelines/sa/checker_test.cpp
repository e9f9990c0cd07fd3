// SPDX-License-Identifier: BSL-1.0
// The external suffix-array checker: accepts every correct array (all index widths, budgets that
// force its sorters to disk, std and stxxl vectors and files) and rejects every mutation: two
// entries swapped, one duplicated, one off by one, one out of range, the array truncated.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/checker.hpp>
#include <emflow/pipelines/sa/compiled.hpp>
#include <stxxl/vector>

#include <random>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::text_bytes;

namespace {

template <class Index>
check_result check(const text_bytes& t, const std::vector<std::uint64_t>& sa,
                   std::size_t memory = 64 * emflow_test::MiB) {
    const auto idx = emflow_test::as_index<Index>(sa);
    return check_suffix_array<Index>([&] { return streamify(t); }, t.size(),
                                     [&] { return streamify(idx); }, idx.size(),
                                     emflow_test::checker_options(memory));
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("checker accepts correct suffix arrays", "[sa][checker]",
                        emflow_test::sa_indices) {
    emflow_test::configure_test_disks();
    for (const auto& [name, t] : emflow_test::standard_texts(emflow_test::test_seed())) {
        INFO(name);
        auto r = check<TestType>(t, emflow_test::reference_sa(t));
        CHECK(r.reason == "");
        CHECK(r.ok);
    }
}

TEST_CASE("checker spills to disk with a small budget, inputs from stxxl::vectors",
          "[sa][checker]") {
    auto& dir = emflow_test::configure_test_disks();
    auto t = emflow_test::random_text(1 << 20, 4, emflow_test::test_seed());
    auto ref = emflow_test::reference_sa(t);
    stxxl::VECTOR_GENERATOR<std::uint8_t>::result text;
    stxxl::VECTOR_GENERATOR<emflow_test::index64>::result sa;
    for (auto c : t) text.push_back(c);
    for (auto x : ref) sa.push_back(x);
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        sa_options cfg;
        cfg.memory_bytes = 24 << 20;  // the vectors' readers hold 12 MiB (2 MiB blocks)
        cfg.mode = mode;
        auto io_before = current_io_volume();
        auto r =
            check_suffix_array<emflow_test::index64>([&] { return streamify(text); }, text.size(),
                                                     [&] { return streamify(sa); }, sa.size(), cfg);
        CHECK(r.ok);
        CHECK(current_io_volume().bytes_written - io_before.bytes_written >=
              2 * sizeof(emflow_test::index64) * t.size());
        std::swap(sa[1000], sa[2000]);
        r = check_suffix_array<emflow_test::index64>([&] { return streamify(text); }, text.size(),
                                                     [&] { return streamify(sa); }, sa.size(), cfg);
        CHECK_FALSE(r.ok);
        std::swap(sa[1000], sa[2000]);
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("checker rejects every mutated array", "[sa][checker]") {
    emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (const auto& [name, t] : emflow_test::standard_texts(rng())) {
        if (t.size() < 2) continue;
        INFO(name);
        const auto ref = emflow_test::reference_sa(t);
        const std::size_t n = ref.size();
        for (int round = 0; round < 3; ++round) {
            std::size_t a = rng() % n, b = (a + 1 + rng() % (n - 1)) % n;
            auto swapped = ref;
            std::swap(swapped[a], swapped[b]);
            auto r = check<std::uint32_t>(t, swapped);
            CHECK_FALSE(r.ok);
            CHECK(r.reason.find("out of order") != std::string::npos);

            auto dup = ref;
            dup[a] = ref[b];
            r = check<emflow_test::index40>(t, dup);
            CHECK_FALSE(r.ok);
            CHECK((r.reason.find("twice") != std::string::npos ||
                   r.reason.find("missing") != std::string::npos));

            auto off = ref;
            off[a] = (ref[a] + 1) % n;  // then some position occurs twice
            CHECK_FALSE(check<emflow_test::index64>(t, off).ok);

            auto out_of_range = ref;
            out_of_range[a] = n + rng() % 3;
            r = check<std::uint32_t>(t, out_of_range);
            CHECK_FALSE(r.ok);
            CHECK(r.reason.find("not a position") != std::string::npos);
        }
        auto truncated = ref;
        truncated.pop_back();
        CHECK_FALSE(check<std::uint32_t>(t, truncated).ok);
        auto longer = ref;
        longer.push_back(0);
        CHECK_FALSE(check<std::uint32_t>(t, longer).ok);
        auto reversed = std::vector<std::uint64_t>(ref.rbegin(), ref.rend());
        CHECK_FALSE(check<std::uint32_t>(t, reversed).ok);
    }
}

TEST_CASE("checker reads text and array from files", "[sa][checker]") {
    auto& dir = emflow_test::configure_test_disks();
    auto t = emflow_test::random_text(300000, 256, emflow_test::test_seed());
    auto ref = emflow_test::reference_sa(t);
    std::string text_path = (dir.path() / "text").string(),
                sa_path = (dir.path() / "text.sa").string();
    {
        std::vector<std::uint64_t> sa64(ref.begin(), ref.end());
        file_sink<std::uint8_t> ts(text_path);
        materialize(streamify(t), ts);
        ts.commit();
        file_sink<emflow_test::index40> ss(sa_path);
        materialize(
            streamify(sa64) | transform([](std::uint64_t x) { return emflow_test::index40(x); }),
            ss);
        ss.commit();
    }
    auto r = check_suffix_array<emflow_test::index40>(
        [&] { return file_source<std::uint8_t>(text_path); }, t.size(),
        [&] { return file_source<emflow_test::index40>(sa_path); }, ref.size());
    CHECK(r.ok);
    if constexpr (emflow_test::wide_indices) {
        // Read with the wrong width, the same bytes are no suffix array.
        const sa_options rejecting = emflow_test::checker_options();
        CHECK_FALSE(check_suffix_array<std::uint32_t>(
                        [&] { return file_source<std::uint8_t>(text_path); }, t.size(),
                        [&] { return file_source<std::uint32_t>(sa_path); }, t.size() * 5 / 4,
                        rejecting)
                        .ok);
        CHECK_FALSE(check_suffix_array<std::uint64_t>(
                        [&] { return file_source<std::uint8_t>(text_path); }, t.size() / 8 * 5,
                        [&] { return file_source<std::uint64_t>(sa_path); }, t.size() / 8 * 5,
                        rejecting)
                        .ok);
    }
}
