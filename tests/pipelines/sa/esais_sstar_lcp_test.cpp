// SPDX-License-Identifier: BSL-1.0
// The S* LCP search (esais/sstar_lcp.hpp) alone, against the LCPs of adjacent S* suffixes taken
// from libdivsufsort's suffix array and Kasai's LCP array: texts whose repeats make chains of
// followers (broken by mutations), texts without, slices of a few suffixes and pairs, the text
// from a vector (read through) and from a file (jumped over).
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/detail/esais/sstar_lcp.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa::detail::esais;
using emflow_test::text_bytes;

namespace {

using Index = std::uint32_t;
using seeds_t = stxxl::VECTOR_GENERATOR<seed<Index>>::result;

//! The S* positions of t (S-type, L-type before; the last byte is L-type).
std::vector<std::uint64_t> sstar_positions(const text_bytes& t) {
    const std::size_t n = t.size();
    std::vector<bool> s_type(n, false);
    for (std::size_t i = n - 1; i-- > 0;)
        s_type[i] = t[i] < t[i + 1] || (t[i] == t[i + 1] && s_type[i + 1]);
    std::vector<std::uint64_t> p;
    for (std::size_t i = 1; i < n; ++i)
        if (s_type[i] && !s_type[i - 1]) p.push_back(i);
    return p;
}

//! The S* suffixes of t as seeds in suffix order, and each one's LCP with the one before it.
void sstar_in_suffix_order(const text_bytes& t, seeds_t& seeds, std::vector<std::uint64_t>& lcps) {
    const auto sa = emflow_test::reference_sa(t);
    const auto lcp = emflow_test::reference_lcp(t, sa);
    const auto sstar = sstar_positions(t);
    std::vector<bool> is_sstar(t.size(), false);
    for (auto p : sstar) is_sstar[p] = true;
    std::uint64_t since = 0;  // the least LCP since the last S* suffix in suffix order
    bool first = true;
    for (std::size_t k = 0; k < sa.size(); ++k) {
        since = std::min(since, lcp[k]);
        if (!is_sstar[sa[k]]) continue;
        const std::uint64_t p = sa[k];
        std::uint64_t run = 1;
        while (p + run < t.size() && t[p + run] == t[p]) ++run;
        seed<Index> s{};
        s.order = Index(seeds.size());
        s.pos = Index(p);
        s.run = Index(run);
        s.ch = t[p];
        seeds.push_back(s);
        lcps.push_back(first ? 0 : since);
        first = false;
        since = ~std::uint64_t(0);
    }
}

//! copies of a random block over sigma symbols, each byte of a copy mutated with probability
//! 1 / mutate: long repeats whose S* suffixes pair with the copy before.
text_bytes repeats_text(std::size_t block, std::size_t copies, unsigned mutate,
                        std::mt19937_64& rng) {
    const text_bytes b = emflow_test::random_text(block, 4, rng());
    text_bytes t;
    for (std::size_t c = 0; c < copies; ++c)
        for (std::uint8_t x : b) t.push_back(rng() % mutate == 0 ? std::uint8_t(rng()) : x);
    return t;
}

//! Runs the search on t's S* suffixes (text opened by open_text) and checks every LCP; returns
//! the followers.
template <class OpenText>
std::uint64_t check_search(const text_bytes& t, OpenText open_text, std::uint64_t slice) {
    seeds_t sorted, out;
    std::vector<std::uint64_t> want;
    sstar_in_suffix_order(t, sorted, want);
    progress::phase ph;
    run_options run;
    run.memory_bytes = 64 << 20;
    sstar_lcp<Index> search(t.size(), run, sort_options{}, ph, slice);
    search.run(open_text, sorted, out);
    REQUIRE(out.size() == sorted.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
        INFO("S* suffix " << k << " at " << std::uint64_t(out[k].pos));
        REQUIRE(std::uint64_t(out[k].pos) == std::uint64_t(sorted[k].pos));
        REQUIRE(std::uint64_t(out[k].name) == want[k]);
    }
    return search.followers();
}

}  // namespace

TEST_CASE("S* LCPs: repeats found by followers, every LCP right", "[sa][esais][lcp]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    const std::string path = (dir.path() / "text.bin").string();
    // slices of 500 suffixes and pairs: a graph run and a text scan each (slower a hundredfold
    // under the sanitizers)
    const std::uint64_t small_slice = emflow_test::under_address_sanitizer() ? 3000 : 500;
    for (unsigned mutate : {1000000, 2000, 50}) {
        for (std::uint64_t slice : {std::uint64_t(0), small_slice}) {
            INFO("seed " << seed << ", a mutation in " << mutate << ", slices of " << slice);
            const text_bytes t = repeats_text(5000, 12, mutate, rng);
            {
                file_sink<std::uint8_t> f(path);
                materialize(streamify(t), f);
                f.commit();
            }
            const std::uint64_t from_vector = check_search(
                t, [&t] { return streamify(t); }, slice);
            const std::uint64_t from_file = check_search(
                t, [&path] { return file_source<std::uint8_t>(path); }, slice);
            CHECK(from_vector == from_file);
            // Rare mutations: the S* suffixes of the copies after the first pair with those of
            // another copy over long stretches, most of them followers. Frequent ones end most
            // LCPs in the first bytes round.
            if (mutate >= 2000) CHECK(from_file > sstar_positions(t).size() / 2);
        }
    }
}

TEST_CASE("S* LCPs: texts without repeats, and deep ones", "[sa][esais][lcp]") {
    emflow_test::configure_test_disks();
    const auto seed = emflow_test::test_seed();
    INFO("seed " << seed);
    for (const auto& t :
         {emflow_test::random_text(30000, 4, seed), emflow_test::random_text(30000, 256, seed + 1),
          emflow_test::long_runs_text(30000, 300, seed + 2), emflow_test::fibonacci_text(20000),
          emflow_test::period_doubling_text(20000)}) {
        for (std::uint64_t slice : {std::uint64_t(0), std::uint64_t(1000)})
            check_search(
                t, [&t] { return streamify(t); }, slice);
    }
    // a random text's long LCPs are rare: few pairs follow
    const auto r = emflow_test::random_text(30000, 256, seed + 3);
    CHECK(check_search(
              r, [&r] { return streamify(r); }, 0) < 10);
}
