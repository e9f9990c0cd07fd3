// SPDX-License-Identifier: BSL-1.0
// diamond_input.hpp (test support): a Diamond graph input of n pairs whose keys repeat and whose
// values spread, the same in every test that runs the graph under a budget.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/diamond/diamond.hpp>

#include <cstdint>

namespace emflow_test {

//! n pairs (keys 1..1000003 in a scrambled order, values 1..7777) into in.
inline void make_diamond_input(std::uint64_t n, emflow::pipelines::diamond::diamond_input& in) {
    using emflow::pipelines::diamond::diamond_pair;
    emflow::materialize(
        emflow::generate(n,
                         [i = std::uint64_t(0)]() mutable {
                             ++i;
                             return diamond_pair{i * 2654435761u % 1000003 + 1, i % 7777 + 1};
                         }),
        in);
}

}  // namespace emflow_test
