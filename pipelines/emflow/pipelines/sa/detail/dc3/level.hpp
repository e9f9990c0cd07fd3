// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/dc3/level.hpp: one level of DC3 (Kärkkäinen & Sanders 2003; pipelined
// as in Dementiev, Kärkkäinen, Mehnert & Sanders 2005, drawn as Figure 9 of the parallel pipelining
// paper). Its text is opened once per pass: n symbols 1..sigma (0 past the end).
//   A. name the sample: text -> triples -> sort -> name -> sort by reduced position -> names;
//   B. unless the names are unique: recurse on them (the reduced text) and invert its suffix
//      array by a sort, giving the sample's ranks by reduced position (a reduced text that fits
//      in RAM gets its ranks there, without a suffix array on disk);
//   C. text + ranks -> the three classes -> three sorters -> merge -> suffix array.
// Parallel pipelining puts async pulls after the sorters (the merges run in parallel) and async
// pushes in front of the sorters of classes 1 and 2; the sorters form runs asynchronously and
// sort them in parallel. Traditional pipelining runs the same graph without any of that.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/budget.hpp>
#include <emflow/pipelines/sa/detail/dc3/in_memory.hpp>
#include <emflow/pipelines/sa/detail/dc3/in_memory_doubling.hpp>
#include <emflow/pipelines/sa/detail/dc3/scans.hpp>
#include <emflow/pipelines/sa/detail/dc3/suffixes.hpp>
#include <emflow/pipelines/sa/detail/dc3/tuples.hpp>

#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::dc3 {

//! Opens the reduced text of a level (names or ranks by reduced position) for the next level.
template <class Index>
struct reduced_text {
    const ext_vector<Index>* v;  //!< the names
    //! A fresh source over the names.
    auto operator()() const { return streamify(*v); }
};

//! The text as a DC3 construction reads it: bytes c as symbols c + 1, one source type for every
//! text.
using symbol_source = std::function<any_pull_source<std::uint16_t>()>;

//! DC3's levels for one index type. Defined out of line (below) so that
//! emflow/pipelines/sa/compiled.hpp can declare them compiled in the library emflow::sa: a
//! program then compiles none of the levels itself. The text's suffix array goes into an erased
//! push sink (a vector through a vector_sink): one output type, compiled once.
template <class Index>
struct per_index {
    //! The suffix array of the n-symbol text of symbols (alphabet 1..256) into out.
    static void text(symbol_source& symbols, std::uint64_t n, any_push_sink<Index>& out,
                     const dc3_options& cfg);
    //! The suffix array of a level's reduced text (n names 1..sigma) into sa: DC3's recursion,
    //! and eSAIS's on its S*-substrings' names.
    static void reduced(reduced_text<Index>& text, std::uint64_t n, std::uint64_t sigma,
                        ext_vector<Index>& sa, const dc3_options& cfg, unsigned level);
};

//! "DC3 level 2: what".
inline std::string phase_name(unsigned level, const char* what) {
    return "DC3 level " + std::to_string(level) + ": " + what;
}

//! src, behind an async pull node in parallel pipelining (an lvalue stays referenced).
template <bool Async, class Src>
decltype(auto) decouple(Src&& src) {
    if constexpr (Async)
        return async_pull(std::forward<Src>(src), elements(async_elems<value_t<Src>>()));
    else
        return std::forward<Src>(src);
}

//! The n symbols of src in RAM as integers of type I.
template <class I, class Src>
std::vector<I> read_symbols(Src&& src, std::uint64_t n) {
    std::vector<I> s;
    s.reserve(n);
    materialize(
        std::forward<Src>(src) | transform([](const auto& c) { return I(std::uint64_t(c)); }),
        std::back_inserter(s));
    return s;
}

//! Prefix doubling on s (symbols 1..sigma) where it runs (32-bit symbols) and pays: true if it
//! sorted (suffix array in pairs, ranks in s); else s and sigma may hold the ranks it reached.
template <class I>
bool sorted_by_doubling(std::vector<I>& s, std::size_t& sigma, std::vector<std::uint64_t>& pairs,
                        const dc3_options& cfg) {
    if constexpr (std::is_same_v<I, std::uint32_t>)
        return suffix_array_by_doubling(s, sigma, pairs, cfg.mode == pipelining::parallel,
                                        doubling_work_limit(s.size()));
    else
        return false;
}

//! The suffix array of a level's text into out, in RAM: prefix doubling where it pays, else
//! SA-IS (on doubling's ranks if it gave up midway).
template <class Index, class I, class OpenText, class Out>
void in_memory_level(OpenText& open_text, std::uint64_t n, std::uint64_t sigma, Out& out,
                     const dc3_options& cfg, unsigned level, std::uint64_t symbol_bytes) {
    auto ph =
        begin_phase(cfg.report, phase_name(level, "in-memory suffix array"), n * symbol_bytes);
    std::vector<I> s = read_symbols<I>(count_progress(open_text(), ph, symbol_bytes), n);
    std::size_t alphabet = std::size_t(sigma);
    std::vector<std::uint64_t> pairs;
    if (sorted_by_doubling(s, alphabet, pairs, cfg)) {
        std::vector<I>().swap(s);
        materialize(streamify(pairs) | transform([](std::uint64_t p) {
                        return Index(std::uint64_t(prefix_doubling::position(p)));
                    }),
                    out);
        return;
    }
    std::vector<std::uint64_t>().swap(pairs);
    std::vector<I> sa(n);
    suffix_array_in_memory(s.data(), std::size_t(n), alphabet, sa.data());
    std::vector<I>().swap(s);
    materialize(streamify(sa) | transform([](I x) { return Index(std::uint64_t(x)); }), out);
}

//! Turns s (symbols 1..sigma) into its suffixes' ranks (1 + their slots in the suffix array):
//! doubling leaves them in s when it sorts; else SA-IS's suffix array inverted in place.
template <class I>
void rank_in_memory(std::vector<I>& s, std::size_t sigma, const dc3_options& cfg) {
    {
        std::vector<std::uint64_t> pairs;
        if (sorted_by_doubling(s, sigma, pairs, cfg)) return;
    }
    std::vector<I> sa(s.size());
    suffix_array_in_memory(s.data(), s.size(), sigma, sa.data());
    for (std::size_t k = 0; k < sa.size(); ++k) s[sa[k]] = I(k + 1);
}

//! Phase B of a level whose reduced text (n names 1..sigma, in ranks) fits in RAM: the ranks
//! by reduced position straight into ranks. Neither the next level's suffix array is written
//! nor a sort inverts it.
template <class Index, class I>
void in_memory_ranks(ext_vector<Index>& ranks, std::uint64_t n, std::uint64_t sigma,
                     const dc3_options& cfg, unsigned level) {
    auto ph = begin_phase(cfg.report, phase_name(level, "in-memory ranks"), n * sizeof(Index));
    std::vector<I> s = read_symbols<I>(count_progress(streamify(ranks), ph, sizeof(Index)), n);
    rank_in_memory(s, std::size_t(sigma), cfg);
    write_vector(streamify(s) | transform([](I r) { return Index(std::uint64_t(r)); }), ranks);
}

template <class Index, class Sym, class OpenText, class Out>
void external_level(OpenText& open_text, std::uint64_t n, Out& out, const dc3_options& cfg,
                    unsigned level, std::uint64_t symbol_bytes);

//! The suffix array of a level's text (n symbols 1..sigma of type Sym) into out.
template <class Index, class Sym, class OpenText, class Out>
void dc3_level(OpenText& open_text, std::uint64_t n, std::uint64_t sigma, Out& out,
               const dc3_options& cfg, unsigned level, std::uint64_t symbol_bytes) {
    if (!runs_in_memory<Index>(n, cfg))
        external_level<Index, Sym>(open_text, n, out, cfg, level, symbol_bytes);
    else if (in_memory_32<Index>(n))
        in_memory_level<Index, std::uint32_t>(open_text, n, sigma, out, cfg, level, symbol_bytes);
    else
        in_memory_level<Index, std::uint64_t>(open_text, n, sigma, out, cfg, level, symbol_bytes);
}

//! Phase A: the sample's names by reduced position into names; returns the number of names.
template <bool Async, class Index, class Sym, class OpenText>
std::uint64_t name_sample(OpenText& open_text, std::uint64_t n, ext_vector<Index>& names,
                          const dc3_options& cfg, unsigned level, std::uint64_t symbol_bytes) {
    const std::uint64_t n0 = (n + 2) / 3;
    const sort_options opt{Async, Async, n0 + n / 3};  // both sorts get the whole sample
    auto ph =
        begin_phase(cfg.report, phase_name(level, "sort and name the sample"), n * symbol_bytes);
    using T = triple<Sym, Index>;
    std::uint64_t count = 0;
    auto name = [&count, n0, prev = T{}](const T& t) mutable {
        if (count == 0 || t.c[0] != prev.c[0] || t.c[1] != prev.c[1] || t.c[2] != prev.c[2])
            ++count;
        prev = t;
        const std::uint64_t i = t.pos;
        return keyed<Index>{Index(i % 3 == 1 ? i / 3 : n0 + i / 3), Index(count)};
    };
    auto triples = scan_triples<Sym, Index>(count_progress(open_text(), ph, symbol_bytes), n);
    auto sorted = decouple<Async>(sort(std::move(triples), by_symbols<Sym, Index>{}, opt));
    auto by_position =
        decouple<Async>(sort(map_each(std::move(sorted), name), by_key<Index>{}, opt));
    write_vector(std::move(by_position) | transform([](const keyed<Index>& k) { return k.value; }),
                 names, graph_run(cfg));
    return count;
}

//! Phase B: the ranks of the reduced text's suffixes by reduced position, from its suffix array,
//! reported as the phase named phase.
template <bool Async, class Index>
void invert(const ext_vector<Index>& sa, ext_vector<Index>& ranks, const dc3_options& cfg,
            const std::string& phase) {
    auto ph = begin_phase(cfg.report, phase, sa.size() * sizeof(Index));
    auto pairs =
        map_each(count_progress(streamify(sa), ph), [k = std::uint64_t(0)](const Index& j) mutable {
            return keyed<Index>{j, Index(++k)};
        });
    auto sorted = decouple<Async>(
        sort(std::move(pairs), by_key<Index>{}, sort_options{Async, Async, sa.size()}));
    write_vector(std::move(sorted) | transform([](const keyed<Index>& k) { return k.value; }),
                 ranks, graph_run(cfg));
}

//! Phase C: the three classes, sorted and merged into out.
template <bool Async, class Index, class Sym, class OpenText, class Out>
void sort_suffixes(OpenText& open_text, std::uint64_t n, const ext_vector<Index>& ranks, Out& out,
                   const dc3_options& cfg, unsigned level) {
    const sort_options opt{Async, Async, (n + 2) / 3};  // each class has at most n0 suffixes
    auto ph = begin_phase(cfg.report, phase_name(level, "sort and merge the suffixes"),
                          n * sizeof(Index));
    using C1 = class1<Sym, Index>;
    using C2 = class2<Sym, Index>;
    sorter_node<C1, by_rank<C1>> s1(by_rank<C1>{}, 0, opt);
    sorter_node<C2, by_rank<C2>> s2(by_rank<C2>{}, 0, opt);
    auto run = [&](auto&& scan) {
        auto s0 = sort(std::move(scan), by_symbol_rank<Sym, Index>{}, opt);
        materialize(merge_classes(decouple<Async>(std::move(s0)), decouple<Async>(s1),
                                  decouple<Async>(s2)) |
                        count_progress(ph),
                    out, graph_run(cfg));
    };
    if constexpr (Async) {
        auto p1 = async_push(s1, elements(async_elems<C1>()));
        auto p2 = async_push(s2, elements(async_elems<C2>()));
        run(scan_classes<Sym, Index>(open_text(), ranks, n, p1, p2));
    } else {
        run(scan_classes<Sym, Index>(open_text(), ranks, n, s1, s2));
    }
}

//! A level on external memory: phases A, B (with the next level) and C.
template <bool Async, class Index, class Sym, class OpenText, class Out>
void external_level_in(OpenText& open_text, std::uint64_t n, Out& out, const dc3_options& cfg,
                       unsigned level, std::uint64_t symbol_bytes) {
    const std::uint64_t m = (n + 2) / 3 + n / 3;
    ext_vector<Index> ranks;
    std::uint64_t names =
        name_sample<Async, Index, Sym>(open_text, n, ranks, cfg, level, symbol_bytes);
    if (names < m && runs_in_memory<Index>(m, cfg)) {
        if (in_memory_32<Index>(m))
            in_memory_ranks<Index, std::uint32_t>(ranks, m, names, cfg, level + 1);
        else
            in_memory_ranks<Index, std::uint64_t>(ranks, m, names, cfg, level + 1);
    } else if (names < m) {
        ext_vector<Index> sa;
        reduced_text<Index> reduced{&ranks};
        per_index<Index>::reduced(reduced, m, names, sa, cfg, level + 1);
        invert<Async, Index>(sa, ranks, cfg, phase_name(level, "rank the sample"));
    }
    sort_suffixes<Async, Index, Sym>(open_text, n, ranks, out, cfg, level);
}

template <class Index, class Sym, class OpenText, class Out>
void external_level(OpenText& open_text, std::uint64_t n, Out& out, const dc3_options& cfg,
                    unsigned level, std::uint64_t symbol_bytes) {
    if (cfg.mode == pipelining::parallel)
        external_level_in<true, Index, Sym>(open_text, n, out, cfg, level, symbol_bytes);
    else
        external_level_in<false, Index, Sym>(open_text, n, out, cfg, level, symbol_bytes);
}

template <class Index>
void per_index<Index>::text(symbol_source& symbols, std::uint64_t n, any_push_sink<Index>& out,
                            const dc3_options& cfg) {
    dc3_level<Index, std::uint16_t>(symbols, n, 256, out, cfg, 0, 1);
}

template <class Index>
void per_index<Index>::reduced(reduced_text<Index>& text, std::uint64_t n, std::uint64_t sigma,
                               ext_vector<Index>& sa, const dc3_options& cfg, unsigned level) {
    dc3_level<Index, Index>(text, n, sigma, sa, cfg, level, sizeof(Index));
}

}  // namespace emflow::pipelines::sa::detail::dc3
