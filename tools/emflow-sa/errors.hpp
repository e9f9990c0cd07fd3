// SPDX-License-Identifier: BSL-1.0
// emflow-sa's exit codes (also in the usage text) and the error that carries one.
#pragma once

#include <stdexcept>
#include <string>

namespace emflow_sa {

//! Exit codes.
enum exit_code {
    exit_ok = 0,
    exit_unexpected = 1,
    exit_usage = 2,
    exit_not_sa = 3,
    exit_input = 4,
    exit_output = 5,
    exit_io = 6,
    exit_memory = 7,
    exit_interrupted = 130
};

//! An error with its exit code; its message is printed as one line.
struct tool_error : std::runtime_error {
    tool_error(exit_code c, const std::string& msg) : std::runtime_error(msg), code(c) {}
    exit_code code;  //!< the process's exit code
};

//! The output's temporary file while it is written (empty otherwise): the interrupt handler
//! removes it. A plain array, so that the handler stays async-signal-safe.
extern char partial_output[4096];
//! The LCP output's temporary file while it is written (build --lcp), likewise.
extern char partial_lcp_output[4096];

}  // namespace emflow_sa
