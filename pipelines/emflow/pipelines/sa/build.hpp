// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/build.hpp: one entry point for every suffix-array construction of emflow,
// chosen by name (as the emflow-sa tool does), and the suffix and LCP arrays together (eSAIS).
//
//   build_suffix_array<emflow::uint40>(sa_algorithm::dc3, [&] { return
//   file_source<std::uint8_t>(p); },
//                                      n, sa_vector, cfg);
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/dc3.hpp>
#include <emflow/pipelines/sa/doubling.hpp>
#include <emflow/pipelines/sa/erased.hpp>
#include <emflow/pipelines/sa/esais.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace emflow::pipelines::sa {

//! The external vector of indices the constructions are compiled for in the library emflow::sa
//! (emflow/pipelines/sa/compiled.hpp); any other stxxl::vector of Index works as an output too,
//! written through a vector_sink (its blocks, 2 MiB by default, count in the budget).
template <class Index>
using sa_vector = ext_vector<Index>;

//! The constructions.
enum class sa_algorithm {
    dc3,          //!< the skew algorithm (Figure 9 of the parallel pipelining paper)
    doubling,     //!< prefix doubling (Figure 8)
    quadrupling,  //!< prefix doubling with 4-tuples: fewer, wider rounds
    esais         //!< induced sorting on the bulk-parallel priority queue
};

//! Parses "dc3", "doubling", "quadrupling" or "esais"; std::invalid_argument otherwise.
inline sa_algorithm parse_sa_algorithm(const std::string& name) {
    if (name == "dc3") return sa_algorithm::dc3;
    if (name == "doubling") return sa_algorithm::doubling;
    if (name == "quadrupling") return sa_algorithm::quadrupling;
    if (name == "esais") return sa_algorithm::esais;
    throw std::invalid_argument("emflow: unknown suffix-array algorithm '" + name + "'");
}

namespace detail::build {

template <class Index, class OpenText, class Out>
void run(sa_algorithm algorithm, OpenText& open_text, std::uint64_t n, Out& out,
         const sa_options& cfg) {
    switch (algorithm) {
        case sa_algorithm::dc3:
            return sa::dc3<Index>(open_text, n, out, cfg);
        case sa_algorithm::doubling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 2);
        case sa_algorithm::quadrupling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 4);
        case sa_algorithm::esais:
            return sa::esais<Index>(open_text, n, out, cfg);
    }
}

//! The suffix and LCP arrays by eSAIS, the construction that induces the LCP array.
template <class Index, class OpenText, class Out, class LcpOut>
void run_lcp(OpenText& open_text, std::uint64_t n, Out& out, LcpOut& lcp_out,
             const sa_options& cfg) {
    sa::esais<Index>(open_text, n, out, lcp_out, cfg);
}

//! Calls f(sink) with out (a push node or an stxxl::vector of Index) as a push sink of 32-bit
//! indices, widened on the way in: out erased as as_push_sink() does, so a vector is written
//! directly, not through a 32-bit copy on disk first.
template <class Index, class Out, class F>
void as_widening_sink(Out& out, F&& f) {
    as_push_sink<Index>(out, [&](any_push_sink<Index>& wide) {
        auto widening =
            push_transform<std::uint32_t>(wide, [](std::uint32_t x) { return Index(x); });
        any_push_sink<std::uint32_t> narrow(widening);
        f(narrow);
    });
}

}  // namespace detail::build

//! The suffix array of the n-byte text read by open_text() (a fresh pull node of bytes per
//! call), materialized into out (an stxxl::vector<Index> or a push node of Index). Texts that
//! 32-bit indices address are sorted with them whatever Index is (tuples a fifth to a half
//! smaller sort that much faster) and widened on the way out.
template <class Index, class OpenText, class Out>
void build_suffix_array(sa_algorithm algorithm, OpenText&& open_text, std::uint64_t n, Out&& out,
                        const sa_options& cfg = {}) {
    using narrow = std::uint32_t;
    if constexpr (sizeof(Index) > sizeof(narrow)) {
        if (n <= max_text_length<narrow>()) {
            // Erased, so that the 32-bit construction compiles once for every output type.
            return detail::build::as_widening_sink<Index>(out, [&](any_push_sink<narrow>& o) {
                detail::build::run<narrow>(algorithm, open_text, n, o, cfg);
            });
        }
    }
    detail::build::run<Index>(algorithm, open_text, n, out, cfg);
}

//! The suffix array into out and the LCP array (LCP[0] = 0, LCP[k] the LCP of the suffixes SA[k-1]
//! and SA[k]) into lcp_out, by eSAIS, as build_suffix_array() does (each output an stxxl::vector
//! or a push node of Index; 32-bit tuples where they suffice, widened on the way out).
template <class Index, class OpenText, class Out, class LcpOut>
void build_suffix_and_lcp_arrays(OpenText&& open_text, std::uint64_t n, Out&& out, LcpOut&& lcp_out,
                                 const sa_options& cfg = {}) {
    using narrow = std::uint32_t;
    if constexpr (sizeof(Index) > sizeof(narrow)) {
        if (n <= max_text_length<narrow>()) {
            return detail::build::as_widening_sink<Index>(out, [&](any_push_sink<narrow>& o) {
                detail::build::as_widening_sink<Index>(lcp_out, [&](any_push_sink<narrow>& l) {
                    detail::build::run_lcp<narrow>(open_text, n, o, l, cfg);
                });
            });
        }
    }
    detail::build::run_lcp<Index>(open_text, n, out, lcp_out, cfg);
}

}  // namespace emflow::pipelines::sa
