// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/level.hpp: eSAIS on a byte text (Bingmann, Fischer & Osipov,
// ALENEX 2013; SAIS by Nong, Zhang & Chan, DCC 2009), its inducing on the bulk-parallel queue:
//   1. classify: one scan of the text counts the suffixes by type and writes the chains'
//      continuations (their seeds are read again by scans of the text where a phase needs them,
//      seed_scan.hpp);
//   2. sort the S*-substrings: the two inducing passes with the S* suffixes seeded by bucket only,
//      naming equal prefixes alike (a suffix's name is new unless its bucket and its inducer's
//      name equal those of the suffix placed before it); the S* suffixes' names in the S-pass's
//      order name the substrings;
//   3. unless the names are unique, DC3 on the reduced text (the names in text order) ranks the
//      S* suffixes;
//   4. induce: the two passes seeded with the S* suffixes in rank order; the L-pass places the
//      L-type suffixes forwards, the S-pass the S-type ones backwards; a last scan merges them
//      bucket by bucket into the suffix array.
// With the LCP array, the S* suffixes' LCPs (sstar_lcp.hpp) join their seeds after step 3, the
// passes of step 4 induce every suffix's LCP (induce.hpp) and the merge writes them too: a
// bucket's first S-type suffix follows its last L-type one with LCP min(k, m), the repetition
// rounds of the bucket in the two passes (c^k a... against c^m b..., a < c < b).
// Between the passes the chains' data meet by sorting (the S-pass's seeds are the L-pass's chain
// ends, joined by position with the S-parts' windows).
// Seeds need no sorting into the passes' order (but with the LCP array, whose minima run over the
// suffixes in the pass's order): the scan counts each bucket's suffixes by type, which fixes the
// ranks of a bucket's seeds in a pass (after its placed suffixes, bucket_ranks), so a seed's rank
// follows from its bucket and its place among the bucket's seeds: its position (sorting the
// substrings, where a bucket's seeds are alike), its rank from the recursion (inducing), or its
// chain end's L-pass rank (the S-pass). The passes push all seeds' successors before they start.
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/budget.hpp>
#include <emflow/pipelines/sa/detail/dc3/level.hpp>
#include <emflow/pipelines/sa/detail/esais/classify.hpp>
#include <emflow/pipelines/sa/detail/esais/induce.hpp>
#include <emflow/pipelines/sa/detail/esais/position_runs.hpp>
#include <emflow/pipelines/sa/detail/esais/queue_clock.hpp>
#include <emflow/pipelines/sa/detail/esais/seed_scan.hpp>
#include <emflow/pipelines/sa/detail/esais/sequential_queue.hpp>
#include <emflow/pipelines/sa/detail/esais/sstar_lcp.hpp>
#include <emflow/pipelines/sa/detail/esais/tuples.hpp>
#include <emflow/pipelines/sa/erased.hpp>
#include <emflow/ppq.hpp>
#include <emflow/progress.hpp>
#include <emflow/vector_appender.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa::detail::esais {

//! The settings of eSAIS: the caller's, DC3's for the recursion (in_memory_symbols), the
//! passes' bulk size and the S* LCP search's slices (tests lower them to drive small texts
//! through every path of a pass and of a round).
struct esais_options : detail::dc3::dc3_options {
    std::size_t bulk_items = 0;  //!< items popped at once and carried in RAM; 0: by the budget
    std::uint64_t lcp_slice_pairs = 0;  //!< S* pairs per text scan; 0: by the text (sstar_lcp)
    std::size_t parallel_items = 0;     //!< bulks from this size processed by all threads; 0: 16384
    unsigned pass_threads = 0;          //!< the threads that process a bulk; 0: the cores
};

//! Least budget: the recursion's (DC3) or the passes' (queue, sorter, buffers), the larger.
inline std::uint64_t minimum_budget(pipelining mode) {
    return std::max<std::uint64_t>(detail::dc3::external_minimum(mode), 16 << 20);
}

//! "eSAIS: what".
inline std::string phase_name(const char* what) { return std::string("eSAIS: ") + what; }

//! Sort options by pipelining mode, for a sort of about items items (0: unknown).
inline sort_options sorting(const esais_options& cfg, std::uint64_t items = 0) {
    const bool async = cfg.mode == pipelining::parallel;
    return {async, async, items};
}

//! A graph between the passes: its sorters share the budget (water-filling; a lone sort takes
//! nearly all of it, where a fixed share merged in up to three passes at small budgets), but for
//! the page cache of the vector it writes and the reader of one vector outside it.
inline run_options graph_between_passes(const esais_options& cfg) {
    run_options run = graph_run(cfg);
    run.memory_bytes -= std::size_t(2 * vector_block_bytes);
    return run;
}

//! The settings of the S* LCP search's graphs: a graph's between the passes less the readers
//! and writers of the pairs.
inline run_options lcp_search_run(const esais_options& cfg) {
    run_options run = graph_between_passes(cfg);
    run.memory_bytes -= std::size_t(4 * vector_block_bytes);
    return run;
}

//! A level's data and budget split. Between the passes the sorts of a graph share the budget
//! (graph()). In a pass: the queue a half, the sorter of waiting chains a sixteenth, six
//! bulk-sized buffers (popped items, the round carried in RAM and the one being filled, a chunk
//! of seeds, a bulk's successors and their sorted run until the queue takes it) a thirty-second
//! each, and the chain ends read back in position order (position_runs: the L-pass's for the
//! S-pass's ranked seeds, the named S* suffixes of the S-pass sorting the substrings) a sixteenth
//! while the pass forms their runs; the S-pass merges the L-pass's in an eighth before it pops
//! (its popped items and rounds are empty then).
template <class Index>
struct level_state {
    using seed_vector = ext_vector<seed<Index>>;
    using cont_vector = ext_vector<continuation<Index>>;
    using end_vector = ext_vector<chain_end<Index>>;

    const esais_options& cfg;     //!< the settings
    const text_source& text;      //!< opens the text (its seeds are scanned again from it)
    std::uint64_t n;              //!< text length
    cont_vector l_cont, s_cont;   //!< continuations, sorted in their pass's order
    seed<Index> end{};            //!< the end of the text with the last L-part
    bucket_counts counts;         //!< suffixes by type and byte, from the scan
    bucket_ranks lranks, sranks;  //!< the passes' ranks when their seeds are ranked

    //! Sort options by pipelining mode, for a sort of about items items (0: unknown).
    sort_options sorting(std::uint64_t items = 0) const {
        return detail::esais::sorting(cfg, items);
    }
    //! A graph between the passes (graph_between_passes).
    run_options graph() const { return graph_between_passes(cfg); }
    //! The queue's configuration in a pass.
    ppq_options queue_options() const {
        ppq_options q;
        q.memory_bytes = std::size_t(cfg.memory_bytes / 2);
        return q;
    }
    //! The number of seeds of a kind (the scan counted them).
    std::uint64_t seeds(seed_kind kind) const {
        const auto& c = kind == seed_kind::sstar ? counts.sstar : counts.lstar;
        std::uint64_t total = 0;
        for (std::uint64_t k : c) total += k;
        return total;
    }
    //! RAM of a pass besides its queue.
    template <class Item>
    pass_limits limits() const {
        pass_limits l;
        const std::size_t items = std::max<std::size_t>(1024, cfg.memory_bytes / 32 / sizeof(Item));
        l.bulk_items = cfg.bulk_items ? cfg.bulk_items : std::min<std::size_t>(items, 1 << 20);
        l.carry_items = l.bulk_items;
        l.waiting_bytes = std::size_t(cfg.memory_bytes / 16);
        if (cfg.parallel_items) l.parallel_items = cfg.parallel_items;
        l.threads = cfg.pass_threads;
        return l;
    }
};

//! Phase 1: the scan, then the continuations sorted in their passes' orders.
template <class Index>
void classify(level_state<Index>& st) {
    using S = level_state<Index>;
    using cont_writer = vector_appender<typename S::cont_vector>;
    auto ph = begin_phase(st.cfg.report, phase_name("classify"), st.n);
    typename S::cont_vector l_cont, s_cont;
    {
        cont_writer lw(l_cont), sw(s_cont);
        scan_outputs<Index, seed_buffer<Index>, cont_writer> out{};  // no seeds: scanned again
        out.l_cont = &lw;
        out.s_cont = &sw;
        classifier<Index, seed_buffer<Index>, cont_writer> scan(out);
        materialize(count_progress(st.text(), ph, 1), scan);
        st.end = out.end;
        st.counts = out.counts;
    }
    st.lranks = bucket_ranks::of(st.counts, false);
    st.sranks = bucket_ranks::of(st.counts, true);
    write_vector(
        sort(streamify(l_cont), by_bucket_position<Index, false>{}, st.sorting(l_cont.size())),
        st.l_cont, st.graph());
    write_vector(
        sort(streamify(s_cont), by_bucket_position<Index, true>{}, st.sorting(s_cont.size())),
        st.s_cont, st.graph());
}

//! Reads seeds through f (a function of the seed read; called once per seed, in order).
template <class Index, class Reader, class F>
class mapped_seeds {
public:
    //! Seeds of r through f.
    mapped_seeds(Reader& r, F f) : r_(r), f_(f) { load(); }
    //! True after the last seed.
    bool empty() const { return empty_; }
    //! The current seed.
    const seed<Index>& operator*() const { return cur_; }
    //! Goes to the next seed.
    mapped_seeds& operator++() {
        ++r_;
        load();
        return *this;
    }

private:
    void load() {
        empty_ = r_.empty();
        if (!empty_) cur_ = f_(*r_);
    }
    Reader& r_;
    F f_;
    seed<Index> cur_{};
    bool empty_ = true;
};

//! The next S-part window of a scan of the text in position order, for the chain end e, as an
//! S-pass seed with e's rank and name (or LCP).
template <class Index>
seed<Index> s_seed(seed_scan<Index>& windows, const chain_end<Index>& e) {
    if (windows.empty())
        throw std::logic_error("emflow: eSAIS L-pass ended more chains than the text has L-parts");
    seed<Index> s = *windows;
    ++windows;
    s.order = e.rank;
    s.name = e.name;
    return s;
}

//! With the LCP array, the S-pass's seeds in its order (the L-pass's backwards): the L-pass's
//! chain ends joined by position with the S-parts' windows.
template <class Index>
void sorted_s_seeds(const level_state<Index>& st,
                    const typename level_state<Index>::end_vector& ends,
                    typename level_state<Index>::seed_vector& out) {
    seed_scan<Index> windows(st.text, seed_kind::lstar);
    auto joined =
        map_each(sort(streamify(ends), by_pos<chain_end<Index>>{}, st.sorting(ends.size())),
                 [&windows](const chain_end<Index>& e) { return s_seed(windows, e); });
    write_vector(sort(std::move(joined), by_order_descending<Index>{}, st.sorting(ends.size())),
                 out, st.graph());
}

//! Counts the suffixes a pass places into a progress phase, bytes_per_suffix bytes each, once
//! per batch (a pass places one suffix at a time, and a phase's counters are atomic).
class placed_progress {
public:
    //! Into ph, bytes_per_suffix bytes per suffix.
    placed_progress(progress::phase& ph, std::uint64_t bytes_per_suffix)
        : ph_(ph), bytes_per_suffix_(bytes_per_suffix) {}
    placed_progress(const placed_progress&) = delete;
    placed_progress& operator=(const placed_progress&) = delete;
    ~placed_progress() { flush(); }
    //! Counts one suffix.
    void operator()() {
        if (++count_ == batch) flush();
    }

private:
    static constexpr std::uint64_t batch = 1 << 16;
    void flush() {
        ph_.add(count_, count_ * bytes_per_suffix_);
        count_ = 0;
    }
    progress::phase& ph_;
    std::uint64_t bytes_per_suffix_;
    std::uint64_t count_ = 0;
};

//! Each bucket's repetition rounds in a pass.
using round_counts = std::array<std::uint64_t, 256>;

//! Runs one pass on the configured priority queue, seed(pass) called before it runs (to push
//! ranked seeds); its buckets' rounds into rounds.
template <class Index, pass_mode Mode, bool Descending, class Seeds, class Conts, class Place,
          class End, class Seed>
std::uint64_t run_pass(const level_state<Index>& st, Seeds& seeds, Conts& conts, Place place,
                       End end, const seed<Index>* start, std::uint64_t first_name,
                       round_counts& rounds, Seed seed) {
    using item_t = item<Index, Mode != pass_mode::plain>;
    using order = pop_later<item_t, Descending>;
    auto run = [&](auto& untimed) {
        timed_queue<item_t, std::decay_t<decltype(untimed)>, Mode == pass_mode::named ? 0 : 1> q(
            untimed);
        induce_pass<Index, Mode, Descending, decltype(q), Seeds, Conts, Place, End> pass(
            q, seeds, conts, place, end, st.template limits<item_t>(), first_name);
        seed(pass);
        const std::uint64_t names = pass.run(start);
        rounds = pass.rounds();
        return names;
    };
    if (st.cfg.queue == queue_kind::stxxl) {
        sequential_queue<item_t, order> q(st.cfg.memory_bytes / 8);
        return run(q);
    }
    // Two read blocks per external array (the queue's default gives each up to a 64th of its
    // RAM): a pass pushes many times the queue's RAM through it, and smaller read buffers let
    // more external arrays wait before the queue merges them, which rewrites their items.
    ppq_options qc = st.queue_options();
    qc.read_buffer_bytes = 2 * make_ppq_layout(qc, sizeof(item_t)).block_bytes;
    parallel_priority_queue<item_t, order> q(order{}, qc);
    return run(q);
}

//! Names of the L-pass's ranked seeds: a bucket's S* suffixes are equal substrings so far, named
//! by their byte, below every name a pass gives.
inline constexpr std::uint64_t seed_names = 256;

//! The L-pass from seeds (a reader; and the text's end), then the S-pass from its chain ends.
//! Without the LCP array the seeds are ranked (bucket_ranks: st.lranks in their order fields; in
//! any order), and the S-pass's come straight from the L-pass's chain ends (position_runs);
//! else both are sorted. place_l and place_s (pos, name or LCP, bucket) see every suffix placed
//! in each pass, end_s every chain end of the S-pass (the S* suffixes); names (pass_mode::named)
//! run on from the L-pass into the S-pass. The passes' rounds per bucket into lrounds and srounds.
template <class Index, pass_mode Mode, class LSeeds, class PlaceL, class PlaceS, class EndS>
void induce_passes(const level_state<Index>& st, LSeeds& lseeds, PlaceL place_l, PlaceS place_s,
                   EndS end_s, round_counts& lrounds, round_counts& srounds) {
    using S = level_state<Index>;
    constexpr bool Ranked = Mode != pass_mode::lcp;
    const std::uint64_t starts = st.seeds(seed_kind::lstar);
    const auto check_ends = [starts](std::uint64_t ended) {
        if (ended != starts)
            throw std::logic_error("emflow: eSAIS L-pass ended " + std::to_string(ended) +
                                   " chains, " + std::to_string(starts) + " expected");
    };
    if constexpr (Ranked) {
        // The S-pass seeds the L-pass's order backwards: a bucket's chain ends take its seed
        // ranks from the last.
        position_runs<chain_end<Index>> ends(st.cfg.memory_bytes / 16 / sizeof(chain_end<Index>));
        std::array<std::uint64_t, 256> ended{};
        std::uint64_t last_name;
        {
            typename S::cont_vector::bufreader_type lconts(st.l_cont);
            last_name = run_pass<Index, Mode, false>(
                st, lseeds, lconts, place_l,
                [&](const chain_end<Index>& e, std::uint8_t c) {
                    if (std::uint64_t(e.pos) == 0) return;
                    if (ended[c] == st.counts.lstar[c])
                        throw std::logic_error("emflow: eSAIS L-pass ended more chains in bucket " +
                                               std::to_string(c) + " than expected");
                    chain_end<Index> x = e;
                    x.rank = Index(st.sranks.seeds[c] + st.counts.lstar[c] - ++ended[c]);
                    ends.push(x);
                },
                &st.end, seed_names, lrounds,
                [&st](auto& pass) { pass.push_ranked_seeds(st.lranks); });
        }
        check_ends(ends.size());
        no_seeds<Index> none;
        typename S::cont_vector::bufreader_type sconts(st.s_cont);
        run_pass<Index, Mode, true>(
            st, none, sconts, place_s, end_s, nullptr, last_name, srounds, [&](auto& pass) {
                seed_scan<Index> windows(st.text, seed_kind::lstar);
                pass.push_ranked_seeds(st.sranks, [&](auto push) {
                    ends.each(st.cfg.memory_bytes / 8,
                              [&](const chain_end<Index>& e) { push(s_seed(windows, e)); });
                });
            });
    } else {
        typename S::end_vector lends;
        {
            typename S::cont_vector::bufreader_type lconts(st.l_cont);
            vector_appender<typename S::end_vector> w(lends);
            run_pass<Index, Mode, false>(
                st, lseeds, lconts, place_l,
                [&w](const chain_end<Index>& e, std::uint8_t) {
                    if (std::uint64_t(e.pos) != 0) w << e;
                },
                &st.end, 0, lrounds, [](auto&) {});
            w.finish();
        }
        check_ends(lends.size());
        typename S::seed_vector sseeds;
        sorted_s_seeds<Index>(st, lends, sseeds);
        lends.clear();
        typename S::seed_vector::bufreader_type seeds(sseeds);
        typename S::cont_vector::bufreader_type sconts(st.s_cont);
        run_pass<Index, Mode, true>(st, seeds, sconts, place_s, end_s, nullptr, 0, srounds,
                                    [](auto&) {});
    }
}

//! Phase 2: the S* suffixes' names (substring order) by position into names; returns how many
//! distinct names there are.
template <class Index>
std::uint64_t name_substrings(level_state<Index>& st, ext_vector<Index>& names) {
    auto ph = begin_phase(st.cfg.report, phase_name("sort the S*-substrings"), st.n);
    // The S-pass meets the S* suffixes backwards (the greatest substring first): it counts the
    // distinct names so far, and a suffix's name is distinct + 1 - that count once all are met.
    const std::uint64_t m = st.seeds(seed_kind::sstar);
    position_runs<pos_value<Index>> named(st.cfg.memory_bytes / 16 / sizeof(pos_value<Index>));
    std::uint64_t distinct = 0;
    {
        // The seeds in position order, ranked by their buckets
        seed_scan<Index> sstar(st.text, seed_kind::sstar);
        std::array<std::uint64_t, 256> seen{};
        auto ranked = [&st, &seen](const seed<Index>& s) {
            seed<Index> t = s;
            t.order = Index(st.lranks.seeds[s.ch] + seen[s.ch]++);
            t.name = Index(s.ch + 1);
            return t;
        };
        mapped_seeds<Index, decltype(sstar), decltype(ranked)> seeds(sstar, ranked);
        // The phase's n bytes: a byte per suffix placed (the passes place each suffix once).
        placed_progress placed(ph, 1);
        auto count = [&placed](Index, Index, std::uint8_t) { placed(); };
        round_counts lrounds, srounds;
        induce_passes<Index, pass_mode::named>(
            st, seeds, count, count,
            [&named, &distinct, prev = Index()](const chain_end<Index>& e, std::uint8_t) mutable {
                if (std::uint64_t(e.pos) == 0) return;
                if (distinct == 0 || e.name != prev) ++distinct;
                prev = e.name;
                named.push(pos_value<Index>{e.pos, Index(distinct)});
            },
            lrounds, srounds);
    }
    if (named.size() != m)
        throw std::logic_error("emflow: eSAIS S-pass found " + std::to_string(named.size()) +
                               " S* suffixes, " + std::to_string(m) + " expected");
    vector_appender<ext_vector<Index>> w(names);
    named.each(std::size_t(st.cfg.memory_bytes / 2), [&w, distinct](const pos_value<Index>& v) {
        w << Index(distinct + 1 - std::uint64_t(v.value));
    });
    w.finish();
    return distinct;
}

//! Phase 3: the S* suffixes' ranks (from 1) by position into names (unique names are the ranks).
template <class Index>
void rank_sstar(level_state<Index>& st, ext_vector<Index>& names, std::uint64_t distinct) {
    const std::uint64_t m = st.seeds(seed_kind::sstar);
    if (distinct < m) {
        ext_vector<Index> ranks;
        ext_vector<Index> sa;
        detail::dc3::reduced_text<Index> reduced{&names};
        detail::dc3::per_index<Index>::reduced(reduced, m, distinct, sa, st.cfg, 1);
        if (st.cfg.mode == pipelining::parallel)
            detail::dc3::invert<true, Index>(sa, ranks, st.cfg, phase_name("rank the S* suffixes"));
        else
            detail::dc3::invert<false, Index>(sa, ranks, st.cfg,
                                              phase_name("rank the S* suffixes"));
        names.swap(ranks);
    }
}

//! With the LCP array: the S* suffixes as the L-pass's seeds in suffix order (ranks by
//! position).
template <class Index>
void sort_sstar(level_state<Index>& st, const ext_vector<Index>& ranks,
                typename level_state<Index>::seed_vector& sorted) {
    const std::uint64_t m = st.seeds(seed_kind::sstar);
    // The phase's 2m bytes: a byte per seed into the sort and one per seed out of it.
    auto ph = begin_phase(st.cfg.report, phase_name("order the S* suffixes"), 2 * m);
    typename ext_vector<Index>::bufreader_type rank_of(ranks);
    seed_scan<Index> sstar(st.text, seed_kind::sstar);
    auto seeds = refill_source<seed<Index>>([&sstar, &rank_of](seed<Index>* out, std::size_t cap) {
        std::size_t k = 0;
        for (; k < cap && !sstar.empty(); ++k, ++sstar, ++rank_of) {
            out[k] = *sstar;
            out[k].order = *rank_of;
        }
        return k;
    });
    write_vector(sort(std::move(seeds) | count_progress(ph, 1), by_order<Index>{}, st.sorting(m)) |
                     count_progress(ph, 1),
                 sorted, st.graph());
}

//! The least budget of eSAIS with the LCP array on the text of open_text (n bytes): at least
//! minimum_budget, and enough for the S* LCP search, whose window rounds open four readers of
//! the text at once (an stxxl::vector's takes three of its blocks). Opens the text, reads nothing.
template <class Index, class OpenText>
std::uint64_t lcp_minimum_budget(OpenText& open_text, std::uint64_t n, const esais_options& cfg) {
    progress::phase none;
    const std::uint64_t outside = cfg.memory_bytes - lcp_search_run(cfg).memory_bytes;
    return std::max(minimum_budget(cfg.mode),
                    outside + sstar_lcp<Index>(n, {}, sorting(cfg), none).least_budget(open_text));
}

//! With the LCP array: each S* suffix's LCP with the one before it into its seed (sorted, in
//! suffix order).
template <class Index, class OpenText>
void join_sstar_lcps(OpenText& open_text, level_state<Index>& st,
                     typename level_state<Index>::seed_vector& sorted) {
    using S = level_state<Index>;
    auto ph = begin_phase(st.cfg.report, phase_name("LCPs of the S* suffixes"), sorted.size());
    typename S::seed_vector joined;
    sstar_lcp<Index>(st.n, lcp_search_run(st.cfg), st.sorting(), ph, st.cfg.lcp_slice_pairs)
        .run(open_text, sorted, joined);
    sorted.swap(joined);
}

//! The current value of a vector reader; the reader moves on.
template <class Reader>
auto next_of(Reader& r) {
    auto x = *r;
    ++r;
    return x;
}

//! n values bucket by bucket (lcount[c] and scount[c] in bucket c), each bucket's L-type ones
//! (take_l()) before its S-type ones (take_s(c, first), first for the bucket's first).
template <class TakeL, class TakeS>
auto interleave_buckets(std::uint64_t n, const std::array<std::uint64_t, 256>& lcount,
                        const std::array<std::uint64_t, 256>& scount, TakeL take_l, TakeS take_s) {
    return generate(n, [&lcount, &scount, take_l, take_s, c = 0u, left_l = lcount[0],
                        left_s = scount[0], first_s = true]() mutable {
        while (left_l == 0 && left_s == 0) {
            ++c;
            left_l = lcount[c];
            left_s = scount[c];
            first_s = true;
        }
        if (left_l > 0) {
            --left_l;
            return take_l();
        }
        --left_s;
        const bool first = std::exchange(first_s, false);
        return take_s(std::uint8_t(c), first);
    });
}

//! Phase 4: the final passes from the L-pass's seeds (a reader: ranked, or sorted with the LCP
//! array) and the merge into out, and the LCP array into lcp_out unless LcpOut is void.
template <class Index, class LSeeds, class Out, class LcpOut>
void induce_all(level_state<Index>& st, LSeeds& seeds, Out& out, LcpOut* lcp_out) {
    constexpr bool Lcp = !std::is_void_v<LcpOut>;
    using writer = vector_appender<ext_vector<Index>>;
    // The phase's bytes: an index per suffix placed by the passes, and one per suffix merged.
    auto ph =
        begin_phase(st.cfg.report, phase_name("induce the suffix array"), 2 * st.n * sizeof(Index));
    ext_vector<Index> lpos, spos, llcp, slcp;
    std::array<std::uint64_t, 256> lcount{}, scount{};
    round_counts lrounds{}, srounds{};
    {
        writer lw(lpos), sw(spos), llw(llcp), slw(slcp);
        placed_progress placed(ph, sizeof(Index));
        auto into = [&placed](writer& w, writer& lcps, std::array<std::uint64_t, 256>& count) {
            return [&w, &lcps, &count, &placed](Index pos, Index lcp, std::uint8_t c) {
                w << pos;
                if constexpr (Lcp) lcps << lcp;
                ++count[c];
                placed();
            };
        };
        constexpr pass_mode mode = Lcp ? pass_mode::lcp : pass_mode::plain;
        induce_passes<Index, mode>(
            st, seeds, into(lw, llw, lcount), into(sw, slw, scount),
            [](const chain_end<Index>&, std::uint8_t) {}, lrounds, srounds);
        for (writer* w : {&lw, &sw, &llw, &slw}) w->finish();
    }
    if (lpos.size() + spos.size() != st.n)
        throw std::logic_error("emflow: eSAIS placed " + std::to_string(lpos.size()) + " + " +
                               std::to_string(spos.size()) + " suffixes of " +
                               std::to_string(st.n));
    // Bucket by bucket: its L-type suffixes forwards, then its S-type ones (stored backwards).
    using reverse_reader =
        stxxl::vector_bufreader_reverse<typename ext_vector<Index>::const_iterator>;
    {
        typename ext_vector<Index>::bufreader_type l(lpos);
        reverse_reader s(spos.cbegin(), spos.cend());
        materialize(interleave_buckets(
                        st.n, lcount, scount, [&l] { return next_of(l); },
                        [&s](std::uint8_t, bool) { return next_of(s); }) |
                        count_progress(ph),
                    out);
    }
    if constexpr (Lcp) {
        // An S-type suffix's LCP in its pass is the one with the next larger suffix: read
        // upwards, each gives the LCP of the one after it.
        typename ext_vector<Index>::bufreader_type l(llcp);
        reverse_reader s(slcp.cbegin(), slcp.cend());
        auto take_s = [&, next = Index(0)](std::uint8_t c, bool first) mutable {
            Index x = next;
            if (first) x = lcount[c] > 0 ? Index(std::min(lrounds[c], srounds[c])) : Index(0);
            next = next_of(s);
            return x;
        };
        materialize(interleave_buckets(
                        st.n, lcount, scount, [&l] { return next_of(l); }, take_s),
                    *lcp_out);
    }
}

//! The suffix array of the n-byte text into out (n > 0), and its LCP array into lcp_out unless
//! LcpOut is void.
template <class Index, class Out, class LcpOut>
void esais_level(text_source& open_text, std::uint64_t n, Out& out, LcpOut* lcp_out,
                 const esais_options& cfg) {
    level_state<Index> st{cfg, open_text, n, {}, {}, {}, {}, {}, {}};
    using S = level_state<Index>;
    classify(st);
    ext_vector<Index> ranks;
    rank_sstar(st, ranks, name_substrings(st, ranks));
    if constexpr (!std::is_void_v<LcpOut>) {
        typename S::seed_vector sorted;
        sort_sstar(st, ranks, sorted);
        ranks.clear();
        join_sstar_lcps(open_text, st, sorted);
        typename S::seed_vector::bufreader_type seeds(sorted);
        induce_all(st, seeds, out, lcp_out);
    } else {
        // The S* suffixes in position order, ranked in the L-pass by their ranks: a bucket's
        // come after those of the smaller buckets.
        std::array<std::uint64_t, 256> before{};
        for (unsigned c = 1; c < 256; ++c) before[c] = before[c - 1] + st.counts.sstar[c - 1];
        seed_scan<Index> sstar(st.text, seed_kind::sstar);
        typename ext_vector<Index>::bufreader_type rank_of(ranks);
        auto ranked = [&st, &before, &rank_of](const seed<Index>& s) {
            seed<Index> t = s;
            t.order = Index(st.lranks.seeds[s.ch] + std::uint64_t(*rank_of) - 1 - before[s.ch]);
            ++rank_of;
            return t;
        };
        mapped_seeds<Index, decltype(sstar), decltype(ranked)> seeds(sstar, ranked);
        induce_all(st, seeds, out, lcp_out);
    }
}

//! eSAIS's levels for one index type, the suffix array alone. Defined out of line so that
//! emflow/pipelines/sa/compiled.hpp can declare them compiled in the library emflow::sa. One
//! output type: an erased push sink (a vector is written through a vector_sink), since the
//! inducing passes would be compiled once more for each other output type.
template <class Index>
struct per_index {
    //! The suffix array of the n-byte text (n > 0) into out.
    static void suffix_array(text_source& text, std::uint64_t n, any_push_sink<Index>& out,
                             const esais_options& cfg);
};

//! As per_index, with the LCP array (its passes are others: a unit of its own).
template <class Index>
struct per_index_lcp {
    //! The suffix array of the n-byte text (n > 0) into out, its LCP array into lcp_out.
    static void arrays(text_source& text, std::uint64_t n, any_push_sink<Index>& out,
                       any_push_sink<Index>& lcp_out, const esais_options& cfg);
    //! lcp_minimum_budget() of the text.
    static std::uint64_t least_budget(text_source& text, std::uint64_t n, const esais_options& cfg);
};

template <class Index>
void per_index<Index>::suffix_array(text_source& text, std::uint64_t n, any_push_sink<Index>& out,
                                    const esais_options& cfg) {
    esais_level<Index>(text, n, out, static_cast<void*>(nullptr), cfg);
}

template <class Index>
void per_index_lcp<Index>::arrays(text_source& text, std::uint64_t n, any_push_sink<Index>& out,
                                  any_push_sink<Index>& lcp_out, const esais_options& cfg) {
    esais_level<Index>(text, n, out, &lcp_out, cfg);
}

template <class Index>
std::uint64_t per_index_lcp<Index>::least_budget(text_source& text, std::uint64_t n,
                                                 const esais_options& cfg) {
    return lcp_minimum_budget<Index>(text, n, cfg);
}

}  // namespace emflow::pipelines::sa::detail::esais
