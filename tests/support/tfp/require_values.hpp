// SPDX-License-Identifier: BSL-1.0
// tfp/require_values.hpp (test support): a time-forward evaluation's node values against the
// reference's (emflow/pipelines/tfp/in_memory_evaluation.hpp), node by node, naming the first node
// that differs.
#pragma once

#include <emflow/pipelines/tfp/dag.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace emflow_test {

//! REQUIREs that values equal expected, node by node.
inline void require_values(const emflow::pipelines::tfp::value_vector& values,
                           const std::vector<std::int64_t>& expected) {
    REQUIRE(values.size() == expected.size());
    std::uint64_t i = 0;
    for (auto it = values.cbegin(); it != values.cend(); ++it, ++i) {
        INFO("node " << i);
        REQUIRE(*it == expected[i]);
    }
}

}  // namespace emflow_test
