// SPDX-License-Identifier: BSL-1.0
// emflow-graph's errors (the exit codes and the errors that carry one are the tools' common
// ones, tools/common/cli.hpp), and the output its interrupt handler removes.
#pragma once

#include "../common/cli.hpp"

#include <stdexcept>
#include <string>

namespace emflow_graph {

using namespace emflow_tools;

//! The output's temporary file while it is written (empty otherwise): the interrupt handler
//! removes it. A plain array, so that the handler stays async-signal-safe.
extern char partial_output[4096];

}  // namespace emflow_graph
