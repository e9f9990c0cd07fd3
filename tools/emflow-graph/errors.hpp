// SPDX-License-Identifier: BSL-1.0
// emflow-graph's exit codes (also in the usage text) and the errors that carry one.
#pragma once

#include <stdexcept>
#include <string>

namespace emflow_graph {

//! Exit codes.
enum exit_code {
    exit_ok = 0,
    exit_unexpected = 1,
    exit_usage = 2,
    exit_check_failed = 3,
    exit_input = 4,
    exit_output = 5,
    exit_io = 6,
    exit_memory = 7,
    exit_interrupted = 130
};

//! A malformed command line; main() prints it with a pointer to --help.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! An error with its exit code; its message is printed as one line.
struct tool_error : std::runtime_error {
    //! An error that ends the program with code c.
    tool_error(exit_code c, const std::string& msg) : std::runtime_error(msg), code(c) {}
    exit_code code;  //!< the process's exit code
};

//! The output's temporary file while it is written (empty otherwise): the interrupt handler
//! removes it. A plain array, so that the handler stays async-signal-safe.
extern char partial_output[4096];

}  // namespace emflow_graph
