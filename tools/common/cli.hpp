// SPDX-License-Identifier: BSL-1.0
// tools/common/cli.hpp: what emflow's command-line programs share: their exit codes, the two
// errors that end a run (a bad command line, and any other with its exit code), one-line
// messages and sizes as "512MiB".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace emflow_tools {

//! Exit codes, the same in every tool (each tool's usage text lists them).
enum exit_code {
    exit_ok = 0,
    exit_unexpected = 1,
    exit_usage = 2,
    exit_check_failed = 3,  //!< check: the output is not what it should be
    exit_input = 4,
    exit_output = 5,
    exit_io = 6,
    exit_memory = 7,
    exit_interrupted = 130
};

//! A malformed command line; main() prints it with a pointer to --help (exit_usage).
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! An error with its exit code; its message is printed as one line.
struct tool_error : std::runtime_error {
    //! An error that ends the program with code c.
    tool_error(exit_code c, const std::string& msg) : std::runtime_error(msg), code(c) {}
    exit_code code;  //!< the process's exit code
};

//! s on one line: line breaks become spaces, trailing spaces go.
inline std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

//! Parses "123", "64KiB", "512MiB", "1GiB", "2TiB" (also K/M/G/T, KB/MB/GB/TB as powers of 2);
//! usage_error otherwise.
inline std::uint64_t parse_size(const std::string& s) {
    std::size_t pos = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(s, &pos);
    } catch (const std::exception&) {
        throw usage_error("not a size: '" + s + "'");
    }
    const std::string unit = s.substr(pos);
    int shift = -1;
    if (unit.empty() || unit == "B") shift = 0;
    if (unit == "K" || unit == "KB" || unit == "KiB") shift = 10;
    if (unit == "M" || unit == "MB" || unit == "MiB") shift = 20;
    if (unit == "G" || unit == "GB" || unit == "GiB") shift = 30;
    if (unit == "T" || unit == "TB" || unit == "TiB") shift = 40;
    if (shift < 0)
        throw usage_error("unknown size unit in '" + s + "' (use B, KiB, MiB, GiB, TiB)");
    if (shift > 0 && v > (~0ull >> shift)) throw usage_error("size too large: '" + s + "'");
    return std::uint64_t(v) << shift;
}

}  // namespace emflow_tools
