// SPDX-License-Identifier: BSL-1.0
// emflow-sa's exit codes (also in the usage text), the error that carries one, and the one line
// any error becomes.
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

//! s on one line.
inline std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

//! An error's message as the tool prints it after "emflow-sa: ": on one line, without the
//! library's own "emflow: " (or "emflow::component: ") in front.
inline std::string message_of(const std::string& what) {
    const std::size_t colon = what.find(": ");
    const bool prefixed =
        what.rfind("emflow", 0) == 0 && colon != std::string::npos && what.find(' ') == colon + 1;
    return one_line(prefixed ? what.substr(colon + 2) : what);
}

//! The operating system's words in an STXXL I/O error ("... rc=-1 : File too large: ..."), or
//! the whole message on one line.
inline std::string os_error_of(const std::string& what) {
    std::size_t rc = what.find("rc=");
    std::size_t from = rc == std::string::npos ? rc : what.find(" : ", rc);
    if (from == std::string::npos) return one_line(what);
    from += 3;
    return what.substr(from, what.find(':', from) - from);
}

//! The output's temporary file while it is written (empty otherwise): the interrupt handler
//! removes it. A plain array, so that the handler stays async-signal-safe.
extern char partial_output[4096];
//! The LCP output's temporary file while it is written (build --lcp), likewise.
extern char partial_lcp_output[4096];

}  // namespace emflow_sa
