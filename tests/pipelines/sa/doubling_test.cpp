// SPDX-License-Identifier: BSL-1.0
// Prefix doubling and quadrupling: the suffix arrays of the standard texts equal libdivsufsort's
// for both tuple widths, both pipelining modes and all three index types; small budgets (several
// runs per sorter), output into an stxxl::vector and into a push node; bad arguments and too
// small budgets are rejected before the text is opened; errors of the text source reach the
// caller; no temp file is left.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/doubling.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_test::text_bytes;

namespace {

//! Index of the first difference of got and want (npos if equal).
template <class V>
std::size_t first_mismatch(const V& got, const std::vector<std::uint64_t>& want) {
    if (got.size() != want.size()) return std::min(got.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k)
        if (std::uint64_t(got[k]) != want[k]) return k;
    return std::string::npos;
}

//! The suffix array of text, into an stxxl::vector, read back.
template <class Index>
std::vector<Index> doubling_sa(const text_bytes& text, const sa_options& cfg, unsigned width) {
    emflow::pipelines::sa::sa_vector<Index> out;
    out.push_back(Index(7));  // replaced
    prefix_doubling<Index>([&] { return streamify(text); }, text.size(), out, cfg, width);
    return std::vector<Index>(out.begin(), out.end());
}

//! Push node collecting into a std::vector; counts push_stop().
template <class Index>
struct collector {
    using value_type = Index;  //!< element type
    std::vector<Index>* out;   //!< receives the elements
    int* stops;                //!< push_stop() calls

    //! Nothing to start.
    void start(run_context&) {}
    //! Appends x.
    void push(const Index& x) { out->push_back(x); }
    //! Appends n elements.
    void push_batch(const Index* p, std::size_t n) { out->insert(out->end(), p, p + n); }
    //! Counts the stop.
    void push_stop() { ++*stops; }
};

sa_options config(std::size_t memory, pipelining mode) {
    sa_options cfg;
    cfg.memory_bytes = memory;
    cfg.mode = mode;
    return cfg;
}

const char* mode_name(pipelining m) {
    return m == pipelining::parallel ? "parallel" : "traditional";
}

//! Every standard text with width, both modes, uint32 indices.
void check_standard_texts(unsigned width) {
    auto& dir = emflow_test::configure_test_disks();
    for (const auto& t : emflow_test::standard_texts(emflow_test::test_seed())) {
        const auto want = emflow_test::reference_sa(t.text);
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            INFO(t.name << ", n = " << t.text.size() << ", width " << width << ", "
                        << mode_name(mode));
            auto got = doubling_sa<std::uint32_t>(t.text, config(32 << 20, mode), width);
            CHECK(first_mismatch(got, want) == std::string::npos);
        }
    }
    CHECK(dir.entries() == 0);
}

}  // namespace

TEST_CASE("prefix doubling: standard texts", "[sa][doubling]") { check_standard_texts(2); }

TEST_CASE("prefix quadrupling: standard texts", "[sa][doubling]") { check_standard_texts(4); }

TEMPLATE_LIST_TEST_CASE("prefix doubling: every index type", "[sa][doubling]",
                        emflow_test::sa_indices) {
    emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    const std::vector<text_bytes> texts{{0x00, 0x00},
                                        {'a', 'b', 'r', 'a', 'c', 'a', 'd', 'a', 'b', 'r', 'a'},
                                        emflow_test::random_text(30000, 4, seed),
                                        emflow_test::fibonacci_text(30000),
                                        emflow_test::run_text(20000, 0xFF)};
    for (const auto& text : texts) {
        const auto want = emflow_test::reference_sa(text);
        for (unsigned width : {2u, 4u}) {
            auto mode = width == 2 ? pipelining::parallel : pipelining::traditional;
            INFO("n = " << text.size() << ", width " << width << ", " << mode_name(mode));
            auto got = doubling_sa<TestType>(text, config(32 << 20, mode), width);
            CHECK(first_mismatch(got, want) == std::string::npos);
        }
    }
}

TEST_CASE("prefix doubling: the smallest budget, several runs per sorter", "[sa][doubling]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t seed = emflow_test::test_seed();
    const text_bytes text = emflow_test::long_runs_text(400000, 5000, seed);
    const auto want = emflow_test::reference_sa(text);
    for (unsigned width : {2u, 4u}) {
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            INFO("width " << width << ", " << mode_name(mode));
            // 7 MiB with one disk: about 0.5 MiB per run buffer, 12 runs of tuples and more.
            auto got = doubling_sa<std::uint32_t>(text, config(7 << 20, mode), width);
            CHECK(first_mismatch(got, want) == std::string::npos);
        }
    }
    CHECK(dir.entries() == 0);
}

TEST_CASE("prefix doubling: output into a push node, text from an stxxl::vector",
          "[sa][doubling]") {
    emflow_test::configure_test_disks();
    const text_bytes text = emflow_test::period_doubling_text(50000);
    stxxl::VECTOR_GENERATOR<std::uint8_t>::result ext;
    for (auto c : text) ext.push_back(c);
    const auto want = emflow_test::reference_sa(text);
    for (unsigned width : {2u, 4u}) {
        INFO("width " << width);
        std::vector<std::uint32_t> got;
        int stops = 0;
        prefix_doubling<std::uint32_t>([&] { return streamify(ext); }, text.size(),
                                       collector<std::uint32_t>{&got, &stops},
                                       config(16 << 20, pipelining::parallel), width);
        CHECK(stops == 1);
        CHECK(first_mismatch(got, want) == std::string::npos);
    }
    std::vector<std::uint32_t> none;
    int stops = 0;
    prefix_doubling<std::uint32_t>([&] { return streamify(text); }, 0,
                                   collector<std::uint32_t>{&none, &stops});
    CHECK(none.empty());
    CHECK(stops == 1);
}

TEST_CASE("prefix doubling: reports its rounds as progress phases", "[sa][doubling]") {
    emflow_test::configure_test_disks();
    const text_bytes text = emflow_test::run_text(1000, 'a');  // h = 7, 14, ..., 896: 8 rounds
    std::vector<progress_figures> finished;
    {
        progress report([&](const progress_figures& f) {
            if (f.finished) finished.push_back(f);
        });
        sa_options cfg = config(16 << 20, pipelining::parallel);
        cfg.report = &report;
        auto got = doubling_sa<std::uint32_t>(text, cfg, 2);
        CHECK(first_mismatch(got, emflow_test::reference_sa(text)) == std::string::npos);
    }
    REQUIRE(finished.size() == 10);
    CHECK(finished.front().phase == "doubling: names of the first 7 characters");
    CHECK(finished[1].phase == "doubling round 1 (h=7): sort");
    CHECK(finished[8].phase == "doubling round 8 (h=896): sort");
    CHECK(finished.back().phase == "doubling: suffix array");
    CHECK(finished[1].bytes ==
          1000 * sizeof(emflow::pipelines::sa::detail::doubling::keyed_name<std::uint32_t>));
    CHECK(finished[8].bytes < finished[1].bytes);  // finished positions were discarded
    for (const auto& f : finished) CHECK(f.bytes == f.bytes_total);
}

TEST_CASE("prefix doubling: bad arguments and small budgets fail before any work",
          "[sa][doubling]") {
    emflow_test::configure_test_disks();
    const text_bytes text{'a', 'b'};
    int opened = 0;
    auto open = [&] {
        ++opened;
        return streamify(text);
    };
    emflow::pipelines::sa::sa_vector<std::uint32_t> out;
    CHECK_THROWS_AS(prefix_doubling<std::uint32_t>(open, 2, out, {}, 3), std::invalid_argument);
    CHECK_THROWS_AS(prefix_doubling<std::uint32_t>(open, 2, out, {}, 1), std::invalid_argument);
    CHECK_THROWS_AS(prefix_doubling<std::uint32_t>(open, max_text_length<std::uint32_t>() + 1, out),
                    std::invalid_argument);
    try {
        prefix_doubling<std::uint32_t>(open, 2, out, config(6 << 20, pipelining::parallel));
        FAIL("no config_error");
    } catch (const config_error& e) {
        CHECK(std::string(e.what()).find("at least 7340032 bytes") != std::string::npos);
    }
    CHECK(opened == 0);
}

TEST_CASE("prefix doubling: errors of the text source reach the caller", "[sa][doubling]") {
    auto& dir = emflow_test::configure_test_disks();
    const text_bytes text = emflow_test::random_text(20000, 4, 1);
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        INFO(mode_name(mode));
        emflow::pipelines::sa::sa_vector<std::uint32_t> out;
        auto failing = [&] {
            return generate(text.size(), [k = std::size_t(0), &text]() mutable {
                if (k == 15000) throw std::runtime_error("disk on fire");
                return text[k++];
            });
        };
        CHECK_THROWS_WITH(
            prefix_doubling<std::uint32_t>(failing, text.size(), out, config(16 << 20, mode)),
            "disk on fire");
        // A source shorter or longer than announced.
        auto open = [&] { return streamify(text); };
        CHECK_THROWS_WITH(
            prefix_doubling<std::uint32_t>(open, text.size() + 1, out, config(16 << 20, mode)),
            Catch::Contains("gave 20000 bytes, expected 20001"));
        CHECK_THROWS_WITH(
            prefix_doubling<std::uint32_t>(open, text.size() - 1, out, config(16 << 20, mode)),
            Catch::Contains("gave more than 19999 bytes"));
    }
    CHECK(dir.entries() == 0);
}
