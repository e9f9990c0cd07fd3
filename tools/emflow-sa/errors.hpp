// SPDX-License-Identifier: BSL-1.0
// emflow-sa's errors as it prints them (the exit codes and the errors that carry one are the
// tools' common ones, tools/common/cli.hpp), and the outputs its interrupt handler removes.
#pragma once

#include "../common/cli.hpp"

#include <stdexcept>
#include <string>

namespace emflow_sa {

using namespace emflow_tools;

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
