// emflow/pipelines/sa/doubling.hpp: suffix arrays by prefix doubling and quadrupling in external
// memory (Dementiev, Kärkkäinen, Mehnert, Sanders, "Better External Memory Suffix Array
// Construction", ALENEX 2005 / JEA 2008), as the flow graph of Figure 8 of the parallel
// pipelining paper: one graph per round, a straight path of the previous round's runs merger,
// a scan joining names, the full sorter of the tuples, a renaming scan and the next round's
// runs creator.
//
// Names are ranks of length-h prefixes of the suffixes (1..n, 0: past the end). The first round
// names the first 7 characters (packed into one word). A round with tuple width W reads the
// names ordered by (i mod h, i div h), so that i, i+h, ..., i+(W-1)h are adjacent, builds the
// tuples (name[i], ..., name[i+(W-1)h]; i), sorts them and renames them (a name is the rank of
// the first tuple with the same names), which names the prefixes of length W*h. Once all names
// are unique they are the inverse suffix array: a last sort by name outputs the suffix array.
// Width 2 is doubling, width 4 quadrupling (wider tuples, half as many rounds).
//
//   prefix_doubling<std::uint32_t>([&] { return streamify(text); }, text.size(), sa, cfg, 4);
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/config.hpp>
#include <emflow/pipelines/sa/doubling/scans.hpp>
#include <emflow/pipelines/sa/doubling/tuples.hpp>

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

namespace doubling_detail {

//! The smallest budget of one sorter: sorter_node's writer and two run buffers (2 MiB), and
//! STXXL's recursive merge (4 blocks of 256 KiB per disk + 3).
inline std::size_t min_sorter_memory() {
    const std::size_t block = 256 * 1024;
    const std::size_t disks = stxxl::config::get_instance()->disks_number();
    return std::max<std::size_t>(8 * block, (4 * disks + 4) * block);
}

//! Memory beyond the sorters: the batches of the scanning nodes and the sorters' outputs.
inline constexpr std::size_t graph_overhead = std::size_t(1) << 20;

//! What every graph of one construction shares. Each sorter gets half the budget left after
//! graph_overhead: a round has three sorters, but at most two hold memory at once. While the
//! tuples are formed, the previous round's merger and the tuple sorter's run buffers; then the
//! tuple sorter's merger and the next round's run buffers. A sorter releases its run buffers
//! before it merges, its merger when exhausted, and reserves (but does not touch) its run
//! buffers at the start of the graph.
struct plan {
    std::size_t sorter_memory;  //!< per sorter
    sort_options opt;           //!< run formation
    progress* report;           //!< null: silent
    std::string algo;           //!< "doubling" or "quadrupling", for the phase names
};

//! Holds the names between rounds: filled by a round's renaming (runs creator), pulled by the
//! next round (runs merger).
template <class Index>
using name_sorter = sorter_node<keyed_name<Index>, by_key<Index>>;

//! A fresh name_sorter.
template <class Index>
std::unique_ptr<name_sorter<Index>> make_name_sorter(const plan& p) {
    return std::make_unique<name_sorter<Index>>(by_key<Index>{}, p.sorter_memory, p.opt);
}

//! The first round: names of the first packed_chars characters into next (keyed for
//! h = packed_chars); returns the number of distinct names.
template <class Index, class Text>
std::uint64_t name_characters(Text&& text, std::uint64_t n, name_sorter<Index>& next,
                              const plan& p) {
    auto ph = begin_phase(p.report, p.algo + ": names of the first 7 characters", n);
    auto tuples = scan<char_tuple<Index>>(std::forward<Text>(text) | count_progress(ph, 1),
                                          char_packer<Index>(n));
    auto renamed = scan<keyed_name<Index>>(
        sort(std::move(tuples), by_chars<Index>{}, p.sorter_memory, p.opt),
        renamer<Index, char_tuple<Index>, same_chars>(n, packed_chars, same_chars{}));
    materialize(renamed, next);
    return renamed.scanner().names();
}

//! One round: the names of length h in prev to the names of length W*h in next; returns the
//! number of distinct names.
template <class Index, unsigned W>
std::uint64_t join_names(name_sorter<Index>& prev, std::uint64_t n, std::uint64_t h, unsigned round,
                         name_sorter<Index>& next, const plan& p) {
    using tuple = name_tuple<Index, W>;
    auto ph = begin_phase(
        p.report,
        p.algo + " round " + std::to_string(round) + " (h=" + std::to_string(h) + "): sort",
        n * sizeof(tuple));
    auto tuples = scan<tuple>(prev, tuple_builder<Index, W>(n, h)) | count_progress(ph);
    auto renamed = scan<keyed_name<Index>>(
        sort(std::move(tuples), by_names<Index, W>{}, p.sorter_memory, p.opt),
        renamer<Index, tuple, same_names>(n, W * h, same_names{}));
    materialize(renamed, next);
    return renamed.scanner().names();
}

//! The unique names in names (keyed for distance h) are the inverse suffix array: sorting by
//! name gives the positions in suffix-array order.
template <class Index, class Out>
void write_suffix_array(name_sorter<Index>& names, std::uint64_t n, std::uint64_t h, Out&& out,
                        const plan& p) {
    auto ph = begin_phase(p.report, p.algo + ": suffix array", n * sizeof(Index));
    const residue_order order(n, h);
    auto sa =
        sort(names, by_name<Index>{}, p.sorter_memory, p.opt) |
        transform([order](const keyed_name<Index>& x) { return Index(order.position(x.key)); }) |
        count_progress(ph);
    materialize(sa, std::forward<Out>(out));
}

//! Rounds of width W until all names are unique.
template <class Index, unsigned W, class OpenText, class Out>
void run_rounds(OpenText& open_text, std::uint64_t n, Out&& out, const plan& p) {
    auto names = make_name_sorter<Index>(p);
    std::uint64_t distinct = name_characters<Index>(open_text(), n, *names, p);
    std::uint64_t h = packed_chars;
    for (unsigned round = 1; distinct < n; ++round, h *= W) {
        auto next = make_name_sorter<Index>(p);
        distinct = join_names<Index, W>(*names, n, h, round, *next, p);
        names = std::move(next);
    }
    write_suffix_array<Index>(*names, n, h, std::forward<Out>(out), p);
}

}  // namespace doubling_detail

//! Suffix array of a text of n bytes by prefix doubling (tuple_width 2) or quadrupling (4).
//! open_text() returns a fresh pull node of std::uint8_t over the whole text each time it is
//! called; out is an stxxl::vector<Index> (replaced) or a push node of Index (pushed, then
//! push_stop): anything emflow::materialize accepts.
template <class Index, class OpenText, class Out>
void prefix_doubling(OpenText&& open_text, std::uint64_t n, Out&& out, const sa_config& cfg = {},
                     unsigned tuple_width = 2) {
    using namespace doubling_detail;
    if (tuple_width != 2 && tuple_width != 4)
        throw std::invalid_argument("emflow: prefix doubling takes tuple width 2 or 4, not " +
                                    std::to_string(tuple_width));
    if (n > max_text_length<Index>())
        throw std::invalid_argument("emflow: a text of " + std::to_string(n) +
                                    " bytes is too long for this index type (at most " +
                                    std::to_string(max_text_length<Index>()) + ")");
    ensure_external_memory();
    // At most two sorters hold memory at once (see plan).
    const std::size_t min_memory = 2 * min_sorter_memory() + graph_overhead;
    if (cfg.memory_bytes < min_memory)
        throw config_error("emflow: prefix doubling needs a memory budget of at least " +
                           std::to_string(min_memory) + " bytes, got " +
                           std::to_string(cfg.memory_bytes));
    const bool parallel = cfg.mode == pipelining::parallel;
    const plan p{(cfg.memory_bytes - graph_overhead) / 2, sort_options{parallel, parallel},
                 cfg.report, tuple_width == 2 ? "doubling" : "quadrupling"};
    if (n == 0) {
        const std::vector<Index> none;
        materialize(streamify(none), std::forward<Out>(out));
    } else if (tuple_width == 2) {
        run_rounds<Index, 2>(open_text, n, std::forward<Out>(out), p);
    } else {
        run_rounds<Index, 4>(open_text, n, std::forward<Out>(out), p);
    }
}

}  // namespace emflow::pipelines::sa
