// SPDX-License-Identifier: BSL-1.0
// emflow-graph's errors (the exit codes and the errors that carry one are the tools' common
// ones, tools/common/cli.hpp).
#pragma once

#include "../common/cli.hpp"

#include <stdexcept>
#include <string>

namespace emflow_graph {

using namespace emflow_tools;

}  // namespace emflow_graph
