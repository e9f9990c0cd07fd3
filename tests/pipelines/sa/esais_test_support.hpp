// SPDX-License-Identifier: BSL-1.0
// What the eSAIS tests share: settings, the construction into a vector, the comparison with
// libdivsufsort (and of the LCP array with Kasai's), and the cases that esais_test.cpp runs for
// the suffix array and esais_lcp_test.cpp for both arrays.
#pragma once

#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/pipelines/sa/esais.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

namespace {

using emflow_test::MiB;
using emflow_test::text_bytes;

//! eSAIS's settings: budget, mode, the longest text a DC3 level of the recursion runs in RAM.
emflow::pipelines::sa::detail::esais::esais_options settings(
    std::size_t memory, emflow::pipelines::sa::pipelining mode,
    std::uint64_t in_memory_symbols = ~std::uint64_t(0)) {
    return emflow_test::make_sa_options<emflow::pipelines::sa::detail::esais::esais_options>(
        memory, mode, in_memory_symbols);
}

//! The suffix array of t by eSAIS with settings s, as 64-bit values.
template <class Index>
std::vector<std::uint64_t> esais_sa(const text_bytes& t,
                                    const emflow::pipelines::sa::detail::esais::esais_options& s) {
    return emflow_test::sa_of<Index>([&](auto& out) {
        emflow::pipelines::sa::detail::esais::run<Index>([&] { return emflow::streamify(t); },
                                                         t.size(), out, s);
    });
}

//! Runs of random lengths (1..max_run) stepping down through all 256 bytes, then up: parts of
//! 256 runs, far more than a chain's window holds (every chain needs continuations).
inline text_bytes staircase_text(std::size_t n, std::size_t max_run, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    text_bytes t;
    while (t.size() < n) {
        for (int c = 255; c >= 0 && t.size() < n; --c)
            t.insert(t.end(), std::min<std::size_t>(1 + rng() % max_run, n - t.size()),
                     std::uint8_t(c));
        for (int c = 0; c < 256 && t.size() < n; c += 1 + int(rng() % 3))
            t.insert(t.end(), std::min<std::size_t>(1 + rng() % max_run, n - t.size()),
                     std::uint8_t(c));
    }
    return t;
}

//! Lines of a few letters, each indented by 15 to 20 spaces (a run longer than a window's
//! second and third slots hold): the chains of the lines' first letters all wait for their
//! continuations in one bucket, as in source code, only more of them.
inline text_bytes indented_text(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    text_bytes t;
    while (t.size() < n) {
        t.insert(t.end(), 15 + rng() % 6, std::uint8_t(' '));
        t.push_back('a');
        for (std::uint64_t k = rng() % 5; k > 0; --k) t.push_back(std::uint8_t('b' + rng() % 7));
    }
    t.resize(n);
    return t;
}

//! eSAIS with settings s gives the suffix array of t.
template <class Index>
void check(const text_bytes& t, const emflow::pipelines::sa::detail::esais::esais_options& s) {
    emflow_test::check_reference(t, esais_sa<Index>(t, s));
}

//! eSAIS with settings s gives the suffix array of t and its LCP array (Kasai's).
template <class Index>
void check_lcp(const text_bytes& t, const emflow::pipelines::sa::detail::esais::esais_options& s) {
    emflow::pipelines::sa::sa_vector<Index> lcp;
    const auto sa = emflow_test::sa_of<Index>([&](auto& out) {
        emflow::pipelines::sa::detail::esais::run<Index>([&] { return emflow::streamify(t); },
                                                         t.size(), out, s, &lcp);
    });
    emflow_test::check_reference(t, sa);
    const auto got = emflow_test::sa_of<Index>([&](auto& out) { out.swap(lcp); });
    const auto ref = emflow_test::reference_lcp(t, emflow_test::reference_sa(t));
    REQUIRE(got.size() == ref.size());
    CHECK(emflow_test::first_mismatch(got, ref) == std::string::npos);
}

//! What a case checks: the suffix array alone or with the LCP array.
enum class arrays { sa, sa_and_lcp };

//! eSAIS with 32-bit indices and settings s gives the arrays a of t.
inline void check_32(arrays a, const text_bytes& t,
                     const emflow::pipelines::sa::detail::esais::esais_options& s) {
    if (a == arrays::sa)
        check<std::uint32_t>(t, s);
    else
        check_lcp<std::uint32_t>(t, s);
}

namespace esais_cases {

using emflow::pipelines::sa::pipelining;
using emflow::pipelines::sa::queue_kind;

//! Every random text of up to max_n bytes over each alphabet size of sigmas.
inline void tiny_texts(arrays a, std::size_t max_n, std::initializer_list<unsigned> sigmas) {
    const auto seed = emflow_test::test_seed();
    for (std::size_t n = 0; n <= max_n; ++n) {
        for (unsigned sigma : sigmas) {
            INFO("n = " << n << ", sigma = " << sigma);
            check_32(a, emflow_test::random_text(n, sigma, seed + n),
                     settings(32 * MiB, pipelining::parallel, 0));
        }
    }
}

//! The standard texts through external DC3 levels in both pipelining modes.
inline void standard_texts(arrays a) {
    for (const auto& nt : emflow_test::standard_texts(emflow_test::test_seed())) {
        for (auto mode : {pipelining::traditional, pipelining::parallel}) {
            INFO(nt.name << " (" << nt.text.size() << " bytes), "
                         << (mode == pipelining::parallel ? "parallel" : "traditional"));
            check_32(a, nt.text, settings(32 * MiB, mode, 1000));
        }
    }
}

//! texts on STXXL's sequential priority queue.
inline void sequential_queue(arrays a, const std::vector<text_bytes>& texts) {
    auto s = settings(32 * MiB, pipelining::parallel, 1000);
    s.queue = queue_kind::stxxl;
    for (const auto& t : texts) {
        INFO(t.size() << " bytes");
        check_32(a, t, s);
    }
}

//! Chains longer than their windows (continuations), with runs short, around the longest a
//! window holds after its first (short_run), and over 65 535.
inline void continuations(arrays a) {
    const auto seed = emflow_test::test_seed();
    for (std::size_t max_run : {1, 3, 20, 70000}) {
        INFO("runs up to " << max_run);
        const auto t = staircase_text(max_run > 1000 ? 400000 : 100000, max_run, seed + max_run);
        check_32(a, t, settings(32 * MiB, pipelining::parallel, 1000));
    }
}

//! Tiny bulks: chunked pops, rounds through the queue.
inline void tiny_bulks(arrays a) {
    const auto seed = emflow_test::test_seed();
    for (std::size_t bulk : {1, 2, 7}) {
        INFO("bulk " << bulk);
        auto s = settings(32 * MiB, pipelining::traditional, 1000);
        s.bulk_items = bulk;
        for (const auto& t : {emflow_test::random_text(20000, 3, seed),
                              emflow_test::long_runs_text(30000, 5000, seed + 1),
                              staircase_text(20000, 4, seed + 2)})
            check_32(a, t, s);
    }
}

//! Bulks processed by several threads (process_parallel): from every size on, with bulks and
//! carried rounds tiny (slices with few items, rounds overflowing into the queue) or large.
inline void parallel_bulks(arrays a) {
    const auto seed = emflow_test::test_seed();
    for (unsigned threads : {2u, 3u}) {
        for (std::size_t bulk : {5, 0}) {
            INFO(threads << " threads, bulk " << bulk);
            auto s = settings(32 * MiB, pipelining::parallel, 1000);
            s.pass_threads = threads;
            s.parallel_items = 1;
            s.bulk_items = bulk;
            for (const auto& t : {emflow_test::random_text(20000, 3, seed),
                                  emflow_test::random_text(20000, 200, seed + 1),
                                  emflow_test::long_runs_text(30000, 5000, seed + 2),
                                  staircase_text(20000, 4, seed + 3)})
                check_32(a, t, s);
        }
    }
}

//! Random texts over each alphabet size of sigmas with the least budget: 4 MiB texts, of which
//! the queue (half of the least budget) holds a fraction of a pass's items; under the
//! sanitizers (several times slower) 1 MiB texts: the sorters (of the S* LCPs too) still spill.
//! Then an indented text of the same size: many chains of one bucket waiting for continuations
//! at once (with an stxxl::sorter for them, this failed at the least budget; their runs are
//! position_runs now). In the S-pass, a line's 'a' followed by a letter waits for the run of
//! spaces before it (15 or more, too long for its window): about 41,000 chains of bucket 'a' per
//! MiB, where a run holds about 87,000 at the least budget (a sixteenth of it, 12 bytes each),
//! so 4 MiB merges two runs and 1 MiB one.
inline void least_budget(arrays a, std::initializer_list<unsigned> sigmas) {
    const auto seed = emflow_test::test_seed();
    const std::size_t n = emflow_test::under_address_sanitizer() ? MiB : 4 * MiB;
    const auto least = emflow::pipelines::sa::detail::esais::minimum_budget(pipelining::parallel);
    for (unsigned sigma : sigmas)
        check_32(a, emflow_test::random_text(n, sigma, seed + sigma),
                 settings(least, pipelining::parallel));
    check_32(a, indented_text(n, seed), settings(least, pipelining::parallel));
}

//! The reduced text through external DC3 levels down to 64 symbols; LCPs up to half the text.
inline void deep_recursion(arrays a) {
    check_32(a, emflow_test::fibonacci_text(200000), settings(32 * MiB, pipelining::parallel, 64));
    check_32(a, emflow_test::period_doubling_text(200000),
             settings(32 * MiB, pipelining::traditional, 64));
}

//! Every phase's progress reaches its total (the passes count the suffixes they place, so a
//! phase's figures move while its passes run), and the phases that do have a total report one;
//! the reduced text (names not unique) goes through external DC3 levels, whose suffix array is
//! then inverted in a phase of eSAIS's. Both queues.
inline void progress_totals(arrays a) {
    const auto t = emflow_test::random_text(100000, 4, emflow_test::test_seed());
    for (auto queue : {queue_kind::parallel, queue_kind::stxxl}) {
        std::mutex mutex;
        std::vector<emflow::progress_figures> finished;
        {
            emflow::progress report([&](const emflow::progress_figures& f) {
                std::lock_guard<std::mutex> lock(mutex);
                if (f.finished) finished.push_back(f);
            });
            auto s = settings(32 * MiB, pipelining::parallel, 1000);
            s.queue = queue;
            s.report = &report;
            check_32(a, t, s);
        }
        std::vector<std::string> expected = {"eSAIS: classify", "eSAIS: sort the S*-substrings",
                                             "eSAIS: rank the S* suffixes",
                                             "eSAIS: induce the suffix array"};
        if (a == arrays::sa_and_lcp) {
            expected.insert(expected.end() - 1, "eSAIS: order the S* suffixes");
            expected.insert(expected.end() - 1, "eSAIS: LCPs of the S* suffixes");
        }
        std::vector<std::string> esais_phases;
        for (const auto& f : finished) {
            INFO(f.phase);
            CHECK(f.bytes == f.bytes_total);
            if (f.phase.rfind("eSAIS: ", 0) == 0) {
                CHECK(f.bytes_total > 0);
                esais_phases.push_back(f.phase);
            }
        }
        CHECK(esais_phases == expected);
        CHECK(finished.size() > expected.size());  // and DC3's levels
    }
}

//! A text source that throws midway: the exception reaches the caller and no temporary file is
//! left, in both modes (in parallel mode the failure unwinds suspended tasks).
inline void failing_text_source(arrays a) {
    auto& dir = emflow_test::configure_test_disks();
    const std::uint64_t n = 300000;
    auto open = [&] {
        return emflow::generate(n, [k = std::uint64_t(0)]() mutable {
            if (++k == 200000) throw std::runtime_error("text source failed");
            return std::uint8_t(k % 7);
        });
    };
    for (auto mode : {pipelining::traditional, pipelining::parallel}) {
        INFO((mode == pipelining::parallel ? "parallel" : "traditional"));
        {
            emflow::pipelines::sa::sa_vector<std::uint32_t> out, lcp;
            const auto s = settings(32 * MiB, mode);
            if (a == arrays::sa)
                CHECK_THROWS_WITH(
                    emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, n, out, s),
                    "text source failed");
            else
                CHECK_THROWS_WITH(
                    emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, n, out, s, &lcp),
                    "text source failed");
        }
        CHECK(dir.entries() == 0);
    }
}

//! A text source that throws at the start of its i-th opening, for the first, every stride-th
//! from an offset the seed picks, and the last of the openings a successful run makes (at least
//! least_openings of them; the seed scans open the text again in later phases): the exception
//! reaches the caller and no temporary file is left; an opening that reads nothing may fail
//! without effect.
inline void failing_openings(arrays a, const emflow::pipelines::sa::detail::esais::esais_options& s,
                             std::size_t stride, std::size_t least_openings) {
    auto& dir = emflow_test::configure_test_disks();
    const auto t = emflow_test::period_doubling_text(20000);  // LCPs up to a quarter of the text
    std::size_t opened = 0, fail_at = ~std::size_t(0);
    std::vector<bool> read;  // read[i]: the i-th opening was read
    auto open = [&] {
        const std::size_t i = opened++;
        read.push_back(false);
        return emflow::generate(t.size(), [&, i, k = std::size_t(0)]() mutable {
            if (i == fail_at) throw std::runtime_error("text source failed");
            read[i] = true;
            return t[k++];
        });
    };
    auto build = [&] {
        emflow::pipelines::sa::sa_vector<std::uint32_t> out, lcp;
        if (a == arrays::sa)
            emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, t.size(), out, s);
        else
            emflow::pipelines::sa::detail::esais::run<std::uint32_t>(open, t.size(), out, s, &lcp);
    };
    build();
    const std::vector<bool> reads = read;
    INFO(reads.size() << " openings");
    REQUIRE(reads.size() >= least_openings);
    const std::size_t offset = 1 + emflow_test::test_seed() % stride;
    auto next = [&](std::size_t i) {
        const std::size_t j = i == 0 ? offset : i + stride;
        return i + 1 >= reads.size() ? reads.size() : std::min(j, reads.size() - 1);
    };
    for (fail_at = 0; fail_at < reads.size(); fail_at = next(fail_at)) {
        INFO("failing at opening " << fail_at);
        opened = 0;
        read.clear();
        if (reads[fail_at])
            CHECK_THROWS_WITH(build(), "text source failed");
        else
            build();
        CHECK(dir.entries() == 0);
    }
}

}  // namespace esais_cases

}  // namespace
