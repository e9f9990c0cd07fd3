// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/esais.hpp: suffix array construction by eSAIS, induced sorting in external
// memory (Bingmann, Fischer & Osipov, ALENEX 2013), with the inducing on emflow's bulk-parallel
// priority queue: each bucket's repetition round is one bulk (see esais/induce.hpp). The
// S*-suffixes are ranked by DC3 (dc3.hpp) on the reduced text when their substrings' names are
// not unique. With an LCP output it also induces the LCP array (Fischer, WADS 2011; see
// esais/induce.hpp and esais/sstar_lcp.hpp).
//
//   stxxl::VECTOR_GENERATOR<std::uint32_t>::result sa, lcp;
//   emflow::pipelines::sa::esais<std::uint32_t>([&] { return emflow::streamify(text); }, n, sa,
//   cfg);
//   emflow::pipelines::sa::esais<std::uint32_t>([&] { return emflow::streamify(text); }, n, sa,
//   lcp, cfg);
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/esais/level.hpp>
#include <emflow/uint40.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa {

namespace detail::esais {

//! The suffix array (and the LCP array into lcp_out unless LcpOut is void) of the text into
//! stxxl::vectors or push sinks of Index, by the passes compiled per index type (per_index,
//! per_index_lcp), each output erased into a push sink.
template <class Index, class Out, class LcpOut>
void run_level(text_source& text, std::uint64_t n, Out& out, LcpOut* lcp_out,
               const esais_options& s) {
    if (n == 0) {
        materialize(generate(0, [] { return Index(0); }), out);
        if constexpr (!std::is_void_v<LcpOut>)
            materialize(generate(0, [] { return Index(0); }), *lcp_out);
        return;
    }
    if constexpr (std::is_void_v<LcpOut>) {
        as_push_sink<Index>(out, [&](auto& o) { per_index<Index>::suffix_array(text, n, o, s); });
    } else {
        as_push_sink<Index>(out, [&](auto& o) {
            as_push_sink<Index>(*lcp_out,
                                [&](auto& l) { per_index_lcp<Index>::arrays(text, n, o, l, s); });
        });
    }
}

//! The least budget of esais() on the text of open_text (n bytes), with the LCP array if lcp.
//! Opens the text, reads nothing.
template <class Index, class OpenText>
std::uint64_t least_budget(OpenText& open_text, std::uint64_t n, const esais_options& s, bool lcp) {
    if (!lcp || n == 0) return minimum_budget(s.mode);
    auto text = erase_text(open_text);  // as the run opens it: the erasure's chunk counts too
    return per_index_lcp<Index>::least_budget(text, n, s);
}

//! esais() with eSAIS's internal settings; the LCP array into *lcp_out if given.
template <class Index, class OpenText, class Out, class LcpOut = void>
void run(OpenText&& open_text, std::uint64_t n, Out&& out, const esais_options& s,
         LcpOut* lcp_out = nullptr) {
    static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, uint40> ||
                      std::is_same_v<Index, std::uint64_t>,
                  "eSAIS indices are std::uint32_t, emflow::uint40 or std::uint64_t");
    if (n > max_text_length<Index>())
        throw std::invalid_argument("emflow: eSAIS text of " + std::to_string(n) +
                                    " bytes is longer than this index type allows (" +
                                    std::to_string(max_text_length<Index>()) + ")");
    ensure_external_memory();
    const std::uint64_t need = least_budget<Index>(open_text, n, s, !std::is_void_v<LcpOut>);
    if (s.memory_bytes < need)
        throw config_error("emflow: eSAIS memory budget of " + format_mib(s.memory_bytes, false) +
                           " is too small (at least " + format_mib(need, true) + ", " +
                           std::to_string(need) + " bytes)");
    auto text = erase_text(open_text);
    run_level<Index>(text, n, out, lcp_out, s);
}

}  // namespace detail::esais

//! Suffix array of a text of n bytes by eSAIS. open_text() returns a fresh pull node of
//! std::uint8_t over the whole text each time it is called; out is an stxxl::vector<Index>
//! (replaced) or a push node of Index. Throws std::invalid_argument for n above
//! max_text_length<Index>() and config_error for a budget below the least one, before any work.
template <class Index, class OpenText, class Out>
void esais(OpenText&& open_text, std::uint64_t n, Out&& out, const sa_options& cfg = {}) {
    detail::esais::esais_options s;
    static_cast<sa_options&>(s) = cfg;
    detail::esais::run<Index>(std::forward<OpenText>(open_text), n, std::forward<Out>(out), s);
}

//! Suffix array and LCP array (LCP[0] = 0, LCP[k] = the LCP of the suffixes SA[k-1] and SA[k])
//! of a text of n bytes by eSAIS, as esais() above; lcp_out is an stxxl::vector<Index>
//! (replaced) or a push node of Index, written after out.
template <class Index, class OpenText, class Out, class LcpOut>
void esais(OpenText&& open_text, std::uint64_t n, Out&& out, LcpOut& lcp_out,
           const sa_options& cfg) {
    detail::esais::esais_options s;
    static_cast<sa_options&>(s) = cfg;
    detail::esais::run<Index>(std::forward<OpenText>(open_text), n, std::forward<Out>(out), s,
                              &lcp_out);
}

}  // namespace emflow::pipelines::sa
