// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/doubling.hpp: suffix arrays by prefix doubling and quadrupling in external
// memory (Dementiev, Kärkkäinen, Mehnert, Sanders, "Better External Memory Suffix Array
// Construction", ALENEX 2005 / JEA 2008), as the flow graph of Figure 8 of the parallel
// pipelining paper: one graph per round, a straight path of the previous round's runs merger,
// a scan joining names, the full sorter of the tuples, a renaming scan and the next round's
// runs creator (and, side-ways from the first scan, the sorter of finished positions).
//
// Names are ranks of length-h prefixes of the suffixes (1..n, 0: past the end). The first round
// names the first 7 characters (packed into one word). A round with tuple width W reads the
// names ordered by (i mod h, i div h), so that i, i+h, ..., i+(W-1)h are adjacent, builds the
// tuples (name[i], ..., name[i+(W-1)h]; i), sorts them and renames them (a name is the rank of
// the first tuple with the same names), which names the prefixes of length W*h. Width 2 is
// doubling, width 4 quadrupling (wider tuples, half as many rounds).
// Discarding (the JEA version): a unique name is the suffix's final rank. Such a position
// leaves the rounds once no later tuple needs it (see tuple_builder) and is collected, by rank,
// in a sorter that outputs the suffix array at the end; the rounds only sort the tuples of
// the positions not finished yet, so texts with a few long repeats cost little after the
// first rounds.
//
//   prefix_doubling<std::uint32_t>([&] { return streamify(text); }, text.size(), sa, cfg, 4);
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/budget.hpp>
#include <emflow/pipelines/sa/detail/doubling/scans.hpp>
#include <emflow/pipelines/sa/detail/doubling/tuples.hpp>
#include <emflow/pipelines/sa/erased.hpp>

#include <stxxl/bits/mng/config.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa {

namespace detail::doubling {

//! The smallest budget of one sorter: sorter_node's writer and two run buffers (2 MiB), and
//! STXXL's recursive merge (4 blocks of 256 KiB per disk + 3).
inline std::size_t min_sorter_memory() {
    const std::size_t block = 256 * 1024;
    const std::size_t disks = stxxl::config::get_instance()->disks_number();
    return std::max<std::size_t>(8 * block, (4 * disks + 4) * block);
}

//! Memory beyond the sorters: the batches of the scanning nodes and the sorters' outputs.
inline constexpr std::size_t graph_overhead = std::size_t(1) << 20;

//! What every graph of one construction shares. Each sorter gets a third of the budget left
//! after graph_overhead: a round has four sorters, but at most three hold memory at once. The
//! sorter of finished positions all along; while the tuples are formed, the previous round's
//! merger and the tuple sorter's run buffers; then the tuple sorter's merger and the next
//! round's run buffers. A sorter releases its run buffers before it merges, its merger when
//! exhausted, and reserves (but does not touch) its run buffers at the start of the graph.
struct plan {
    std::size_t sorter_memory;  //!< per sorter
    sort_options opt;           //!< run formation
    progress* report;           //!< null: silent
    std::string algo;           //!< "doubling" or "quadrupling", for the phase names
};

//! Sorters held at once (see plan).
inline constexpr std::size_t sorters_at_once = 3;

//! Holds the names between rounds: filled by a round's renaming (runs creator), pulled by the
//! next round (runs merger).
template <class Index>
using name_sorter = sorter_node<keyed_name<Index>, by_key<Index>>;

//! Collects the finished positions of every round, by rank: the suffix array in the end.
template <class Index>
using done_sorter = sorter_node<ranked_position<Index>, by_rank<Index>>;

//! A fresh name_sorter.
template <class Index>
std::unique_ptr<name_sorter<Index>> make_name_sorter(const plan& p) {
    return std::make_unique<name_sorter<Index>>(by_key<Index>{}, p.sorter_memory, p.opt);
}

//! The first round: names of the first packed_chars characters into next (keyed for
//! h = packed_chars); returns the number of names not unique yet.
template <class Index, class Text>
std::uint64_t name_characters(Text&& text, std::uint64_t n, name_sorter<Index>& next,
                              const plan& p) {
    auto ph = begin_phase(p.report, p.algo + ": names of the first 7 characters", n);
    auto tuples = scan<char_tuple<Index>>(std::forward<Text>(text) | count_progress(ph, 1),
                                          char_packer<Index>(n));
    auto renamed = scan<keyed_name<Index>>(
        sort(std::move(tuples), by_chars<Index>{}, p.sorter_memory, p.opt),
        renamer<Index, char_tuple<Index>, char_groups>(n, packed_chars, char_groups{}));
    materialize(renamed, next);
    return renamed.scanner().unfinished();
}

//! One round: the names of length h in prev to the names of length W*h in next, finished
//! positions not needed any more to done; returns the number of names not unique yet.
template <class Index, unsigned W>
std::uint64_t join_names(name_sorter<Index>& prev, std::uint64_t n, std::uint64_t h, unsigned round,
                         name_sorter<Index>& next, done_sorter<Index>& done, const plan& p) {
    using tuple = name_tuple<Index, W>;
    auto ph = begin_phase(
        p.report,
        p.algo + " round " + std::to_string(round) + " (h=" + std::to_string(h) + "): sort",
        prev.pushed() * sizeof(keyed_name<Index>));
    auto tuples = scan<tuple>(
        prev | count_progress(ph),
        tuple_builder<Index, W, name_sorter<Index>, done_sorter<Index>>(n, h, next, done));
    auto renamed = scan<keyed_name<Index>>(
        sort(std::move(tuples), by_names<Index, W>{}, p.sorter_memory, p.opt),
        renamer<Index, tuple, name_groups>(n, W * h, name_groups{}));
    materialize(renamed, next);
    return renamed.scanner().unfinished();
}

//! All names left (keyed for distance h) are unique: adds them to done, whose ranks order the
//! positions into the suffix array.
template <class Index, class Out>
void write_suffix_array(name_sorter<Index>& names, std::uint64_t n, std::uint64_t h,
                        done_sorter<Index>& done, Out&& out, const plan& p) {
    auto ph = begin_phase(p.report, p.algo + ": suffix array", n * sizeof(Index));
    const residue_order order(n, h);
    materialize(names | transform([order](const keyed_name<Index>& x) {
                    return ranked_position<Index>{x.name, Index(order.position(x.key))};
                }),
                done);
    auto sa =
        done | transform([](const ranked_position<Index>& x) { return x.i; }) | count_progress(ph);
    materialize(sa, std::forward<Out>(out));
}

//! Rounds of width W until all names are unique.
template <class Index, unsigned W, class OpenText, class Out>
void run_rounds(OpenText& open_text, std::uint64_t n, Out&& out, const plan& p) {
    done_sorter<Index> done(by_rank<Index>{}, p.sorter_memory, p.opt);
    auto names = make_name_sorter<Index>(p);
    std::uint64_t unfinished = name_characters<Index>(open_text(), n, *names, p);
    std::uint64_t h = packed_chars;
    for (unsigned round = 1; unfinished > 0; ++round, h *= W) {
        auto next = make_name_sorter<Index>(p);
        unfinished = join_names<Index, W>(*names, n, h, round, *next, done, p);
        names = std::move(next);
    }
    write_suffix_array<Index>(*names, n, h, done, std::forward<Out>(out), p);
}

//! The rounds for one index type, into an erased push sink (a vector through a vector_sink: one
//! output type, compiled once). Defined out of line so that emflow/pipelines/sa/compiled.hpp can
//! declare them compiled in the library emflow::sa.
template <class Index>
struct per_index {
    //! The suffix array of the n-byte text (n > 0) by rounds of tuple width 2 or 4 into out.
    static void rounds(text_source& text, std::uint64_t n, unsigned width,
                       any_push_sink<Index>& out, const plan& p);
};

//! Rounds of width 2 or 4.
template <class Index, class Out>
void rounds_of_width(text_source& text, std::uint64_t n, unsigned width, Out& out, const plan& p) {
    if (width == 2)
        run_rounds<Index, 2>(text, n, out, p);
    else
        run_rounds<Index, 4>(text, n, out, p);
}

template <class Index>
void per_index<Index>::rounds(text_source& text, std::uint64_t n, unsigned width,
                              any_push_sink<Index>& out, const plan& p) {
    rounds_of_width<Index>(text, n, width, out, p);
}

}  // namespace detail::doubling

//! Suffix array of a text of n bytes by prefix doubling (tuple_width 2) or quadrupling (4).
//! open_text() returns a fresh pull node of std::uint8_t over the whole text each time it is
//! called; out is an stxxl::vector<Index> (replaced) or a push node of Index (pushed, then
//! push_stop): anything emflow::materialize accepts.
template <class Index, class OpenText, class Out>
void prefix_doubling(OpenText&& open_text, std::uint64_t n, Out&& out, const sa_options& cfg = {},
                     unsigned tuple_width = 2) {
    using namespace detail::doubling;
    if (tuple_width != 2 && tuple_width != 4)
        throw std::invalid_argument("emflow: prefix doubling takes tuple width 2 or 4, not " +
                                    std::to_string(tuple_width));
    if (n > max_text_length<Index>())
        throw std::invalid_argument("emflow: a text of " + std::to_string(n) +
                                    " bytes is too long for this index type (at most " +
                                    std::to_string(max_text_length<Index>()) + ")");
    ensure_external_memory();
    const std::size_t min_memory = sorters_at_once * min_sorter_memory() + graph_overhead;
    if (cfg.memory_bytes < min_memory)
        throw config_error("emflow: prefix doubling needs a memory budget of at least " +
                           std::to_string(min_memory) + " bytes, got " +
                           std::to_string(cfg.memory_bytes));
    const bool parallel = cfg.mode == pipelining::parallel;
    const plan p{(cfg.memory_bytes - graph_overhead) / sorters_at_once,
                 sort_options{parallel, parallel}, cfg.report,
                 tuple_width == 2 ? "doubling" : "quadrupling"};
    if (n == 0) {
        const std::vector<Index> none;
        materialize(streamify(none), std::forward<Out>(out));
        return;
    }
    // One type for every text source and push sink: the rounds compile once per index type.
    text_source text = erase_text(open_text);
    as_push_sink<Index>(out,
                        [&](auto& o) { per_index<Index>::rounds(text, n, tuple_width, o, p); });
}

}  // namespace emflow::pipelines::sa
