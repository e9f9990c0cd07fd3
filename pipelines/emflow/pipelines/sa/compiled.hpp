// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/compiled.hpp: the suffix-array constructions (DC3, prefix doubling, eSAIS
// with and without the LCP array) and both checkers, declared as compiled in the library
// emflow::sa for std::uint32_t, emflow::uint40 and std::uint64_t indices. A program that includes
// this header and links emflow::sa compiles none of their passes itself (that takes minutes per
// index type); one that does not compiles what it uses from the headers alone. The compiled
// outputs are sa_vector<Index> and any_push_sink<Index>: every other output (a push node, another
// stxxl::vector) is erased into the latter. emflow::sa is a target of this project's build
// (add_subdirectory), built only when something links it.
//
//   #include <emflow/pipelines/sa/compiled.hpp>    // target_link_libraries(app emflow::sa)
//   emflow::pipelines::sa::build_suffix_array<std::uint32_t>(sa_algorithm::dc3, open, n, out);
#pragma once

#include <emflow/pipelines/sa/build.hpp>
#include <emflow/pipelines/sa/checker.hpp>
#include <emflow/pipelines/sa/lcp_checker.hpp>

#include <cstdint>

extern template struct emflow::pipelines::sa::detail::dc3::per_index<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::dc3::per_index<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::dc3::per_index<std::uint64_t>;
extern template struct emflow::pipelines::sa::detail::doubling::per_index<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::doubling::per_index<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::doubling::per_index<std::uint64_t>;
extern template struct emflow::pipelines::sa::detail::esais::per_index<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::esais::per_index<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::esais::per_index<std::uint64_t>;
extern template struct emflow::pipelines::sa::detail::esais::per_index_lcp<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::esais::per_index_lcp<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::esais::per_index_lcp<std::uint64_t>;
extern template struct emflow::pipelines::sa::detail::checker::per_index<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::checker::per_index<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::checker::per_index<std::uint64_t>;
extern template struct emflow::pipelines::sa::detail::lcp_checker::per_index<std::uint32_t>;
extern template struct emflow::pipelines::sa::detail::lcp_checker::per_index<emflow::uint40>;
extern template struct emflow::pipelines::sa::detail::lcp_checker::per_index<std::uint64_t>;
