// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/dc3.hpp: suffix array construction by DC3, the skew algorithm (Kärkkäinen &
// Sanders, ICALP 2003), as external-memory flow graphs (Dementiev, Kärkkäinen, Mehnert & Sanders,
// ALENEX 2005; Figure 9 of the parallel pipelining paper), in traditional or parallel pipelining.
// Levels run on external vectors and sorters until a level's text fits in the budget, which then
// runs in RAM. Bytes c are symbols c + 1 inside (0 is past the end), so every byte may occur.
//
//   stxxl::VECTOR_GENERATOR<std::uint32_t>::result sa;
//   emflow::pipelines::sa::dc3<std::uint32_t>([&] { return emflow::streamify(text); }, n, sa, cfg);
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/common.hpp>
#include <emflow/pipelines/sa/detail/dc3/budget.hpp>
#include <emflow/pipelines/sa/detail/dc3/level.hpp>
#include <emflow/pipelines/sa/erased.hpp>
#include <emflow/uint40.hpp>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa {

namespace detail::dc3 {

//! dc3() with DC3's internal settings.
template <class Index, class OpenText, class Out>
void run(OpenText&& open_text, std::uint64_t n, Out&& out, const dc3_options& s) {
    static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, uint40> ||
                      std::is_same_v<Index, std::uint64_t>,
                  "DC3 indices are std::uint32_t, emflow::uint40 or std::uint64_t");
    if (n > max_text_length<Index>())
        throw std::invalid_argument("emflow: DC3 text of " + std::to_string(n) +
                                    " bytes is longer than this index type allows (" +
                                    std::to_string(max_text_length<Index>()) + ")");
    ensure_external_memory();  // the least budget depends on the number of disks
    const std::uint64_t need = minimum_budget<Index>(n, s);
    if (s.memory_bytes < need)
        throw config_error("emflow: DC3 memory budget of " + format_mib(s.memory_bytes, false) +
                           " is too small for a text of " + std::to_string(n) +
                           " bytes (at least " + format_mib(need, true) + ", " +
                           std::to_string(need) + " bytes)");
    // One type for every text source and every push sink (one indirect call per batch): the
    // levels compile once per index type (per_index), not once per caller.
    symbol_source symbols = [&open_text] {
        return any_pull_source<std::uint16_t>(
            open_text() | transform([](std::uint8_t c) { return std::uint16_t(c + 1u); }));
    };
    as_push_sink<Index>(out, [&](auto& o) { per_index<Index>::text(symbols, n, o, s); });
}

}  // namespace detail::dc3

//! Suffix array of a text of n bytes by DC3. open_text() returns a fresh pull node of
//! std::uint8_t over the whole text each time it is called (it is called once per pass over the
//! text); out is an stxxl::vector<Index> (replaced) or a push node of Index (pushed, then
//! push_stop): anything emflow::materialize accepts. Throws std::invalid_argument for n above
//! max_text_length<Index>() and config_error for a budget below the least one (named), both
//! before any work.
template <class Index, class OpenText, class Out>
void dc3(OpenText&& open_text, std::uint64_t n, Out&& out, const sa_options& cfg = {}) {
    detail::dc3::dc3_options s;
    static_cast<sa_options&>(s) = cfg;
    detail::dc3::run<Index>(std::forward<OpenText>(open_text), n, std::forward<Out>(out), s);
}

}  // namespace emflow::pipelines::sa
