// SPDX-License-Identifier: BSL-1.0
// emflow-sa's command line: the two commands, their options, sizes with units, and the usage
// text. Bad arguments throw usage_error (exit code 2).
#pragma once

#include "../common/cli.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow_sa {

using namespace emflow_tools;

//! Everything the command line says.
struct options {
    std::string command;                      //!< "build", "check" or "help"
    std::string text, output, sa;             //!< TEXT, -o OUT (build), SA (check)
    std::string lcp;                          //!< --lcp LCP: to write (build) or check too
    std::string algorithm = "esais";          //!< esais, dc3, doubling, quadrupling
    std::string pipelining = "parallel";      //!< parallel or traditional
    std::string queue = "ppq";                //!< --queue (esais): ppq or stxxl
    std::uint64_t memory_bytes = 1ull << 30;  //!< --memory
    unsigned threads = 0;                     //!< --threads; 0: all cores
    unsigned index_bytes = 5;                 //!< --index-bytes: 4, 5 or 8
    std::string tmp_dir;             //!< --tmp-dir; empty: $EMFLOW_TMPDIR, $TMPDIR, /var/tmp
    std::uint64_t tmp_capacity = 0;  //!< --tmp-capacity: fixed disk size; 0: grows
    unsigned tmp_files = 0;  //!< --tmp-files: disk files, each with an I/O thread; 0: by budget
    bool quiet = false;      //!< --quiet: no progress, no summary
};

//! The --help text.
inline const char* usage_text() {
    return R"(emflow-sa: suffix arrays of texts larger than memory, in external memory.

Usage:
  emflow-sa build TEXT -o OUT [options]   write the suffix array of TEXT to OUT
  emflow-sa build TEXT -o OUT --lcp LCP   ... and its LCP array to LCP (eSAIS only)
  emflow-sa check TEXT SA [options]       check that SA is the suffix array of TEXT
  emflow-sa check TEXT SA --lcp LCP       ... and that LCP is its LCP array
  emflow-sa --help

TEXT is any file of bytes (every value 0..255 may occur). The suffix array holds the text's
n positions in lexicographic order of their suffixes (a proper prefix first), each a
little-endian unsigned integer of --index-bytes bytes; an LCP array (LCP[0] = 0, LCP[k] the
length of the longest common prefix of the suffixes at SA[k-1] and SA[k]) has the same format.
OUT (and LCP) is written unnamed (O_TMPFILE) and linked in place when complete: nothing is
left after any kill (file systems without O_TMPFILE: a hidden name, left after SIGKILL).

Options:
  -o, --output OUT        (build) the suffix array file to write
  --algorithm A           (build) esais (default), dc3, doubling or quadrupling
  --lcp LCP               (build, esais) also write the LCP array to LCP;
                          (check) also check the LCP array in LCP
  --pipelining P          parallel (default) or traditional (no asynchronous nodes,
                          sequential sorting: the comparison of the parallel pipelining paper)
  --queue Q               (build, esais) ppq (default): the bulk-parallel priority queue, or
                          stxxl: STXXL's sequential priority_queue (for comparison)
  --memory SIZE           memory budget, e.g. 512MiB, 1GiB (default 1GiB)
  --threads N             worker threads (default: all cores)
  --index-bytes W         4, 5 or 8 (default 5: texts up to 1 TiB)
  --tmp-dir DIR           where temporary disk files go (default $EMFLOW_TMPDIR, $TMPDIR,
                          /var/tmp); they are removed, also after a failure
  --tmp-capacity SIZE     fixed size of the temporary disk (default: grows as needed), split
                          evenly over its files; it also limits every file the run writes
                          to SIZE / --tmp-files, so a build whose output is larger is
                          refused before it starts
  --tmp-files N           files of the temporary disk, 1 to 16 (default: 2 with a budget of
                          64MiB or more, else 1); the blocks are spread over them, and each
                          has a thread of its own for the I/O; each file adds about 3 MiB to
                          the smallest budget that works
  -q, --quiet             no progress and no summary on stderr

Exit codes: 0 success (check: the array is correct), 1 unexpected error, 2 bad command line,
3 (check) not the suffix array (or LCP array) of TEXT, 4 input missing, unreadable or too long,
5 output or temporary directory not writable, 6 disk full or I/O error, 7 memory budget too
small, 130 interrupted.
)";
}

namespace detail {

//! v if it is one of allowed, else the usage_error "unknown <what> 'v' (a, b or c)".
inline const std::string& one_of(const std::string& v, const std::vector<std::string>& allowed,
                                 const std::string& what) {
    for (const std::string& a : allowed)
        if (v == a) return v;
    std::string list;
    for (std::size_t k = 0; k < allowed.size(); ++k)
        list += (k == 0 ? "" : k + 1 == allowed.size() ? " or " : ", ") + allowed[k];
    throw usage_error("unknown " + what + " '" + v + "' (" + list + ")");
}

//! The number v given to option opt, from lo to hi, else the usage_error why.
inline unsigned number(const std::string& opt, const std::string& v, unsigned lo, unsigned hi,
                       const char* why) {
    unsigned long n = 0;
    try {
        std::size_t pos = 0;
        n = std::stoul(v, &pos);
        if (pos != v.size()) throw std::invalid_argument(v);
    } catch (const std::exception&) {
        throw usage_error(opt + " needs a number, not '" + v + "'");
    }
    if (unsigned(n) < lo || unsigned(n) > hi) throw usage_error(why);
    return unsigned(n);
}

//! The --index-bytes v given to opt: 4, 5 or 8.
inline unsigned index_bytes(const std::string& opt, const std::string& v) {
    const char* why = "--index-bytes must be 4, 5 or 8";
    const unsigned w = number(opt, v, 4, 8, why);
    if (w == 6 || w == 7) throw usage_error(why);
    return w;
}

//! The command line, read argument by argument.
struct arg_reader {
    const std::vector<std::string>& args;  //!< without the program name
    std::size_t i = 0;                     //!< the argument read

    //! The value of the option at i, which i then passes.
    const std::string& value() {
        if (i + 1 >= args.size()) throw usage_error("option " + args[i] + " needs a value");
        return args[++i];
    }
};

//! Sets in o the option at r.i (reading its value); false if that argument is no option.
inline bool set_option(options& o, arg_reader& r) {
    const std::string& a = r.args[r.i];
    if (a == "-o" || a == "--output")
        o.output = r.value();
    else if (a == "--algorithm")
        o.algorithm = one_of(r.value(), {"dc3", "doubling", "quadrupling", "esais"}, "algorithm");
    else if (a == "--lcp")
        o.lcp = r.value();
    else if (a == "--queue")
        o.queue = one_of(r.value(), {"ppq", "stxxl"}, "queue");
    else if (a == "--pipelining")
        o.pipelining = one_of(r.value(), {"parallel", "traditional"}, "pipelining");
    else if (a == "--memory")
        o.memory_bytes = parse_size(r.value());
    else if (a == "--threads")
        o.threads = number(a, r.value(), 1, ~0u, "--threads must be at least 1");
    else if (a == "--index-bytes")
        o.index_bytes = index_bytes(a, r.value());
    else if (a == "--tmp-dir")
        o.tmp_dir = r.value();
    else if (a == "--tmp-capacity")
        o.tmp_capacity = parse_size(r.value());
    else if (a == "--tmp-files")
        o.tmp_files = number(a, r.value(), 1, 16, "--tmp-files must be 1 to 16");
    else if (a == "-q" || a == "--quiet")
        o.quiet = true;
    else
        return false;
    return true;
}

//! Sets o's command and files from the positional arguments, checked against the options.
inline void set_command(options& o, const std::vector<std::string>& positional) {
    if (positional.empty()) throw usage_error("no command (build or check)");
    o.command = positional[0];
    if (o.command == "build") {
        if (positional.size() != 2) throw usage_error("build takes one TEXT");
        if (o.output.empty()) throw usage_error("build needs -o OUT");
        if (!o.lcp.empty() && o.algorithm != "esais")
            throw usage_error(
                "build --lcp needs --algorithm esais (the construction that "
                "induces the LCP array)");
        if (!o.lcp.empty() && o.lcp == o.output)
            throw usage_error("--lcp and -o name the same file");
        o.text = positional[1];
    } else if (o.command == "check") {
        if (positional.size() != 3) throw usage_error("check takes TEXT and SA");
        o.text = positional[1];
        o.sa = positional[2];
    } else {
        throw usage_error("unknown command '" + o.command + "' (build or check)");
    }
}

}  // namespace detail

//! Parses argv (without the program name).
inline options parse_args(const std::vector<std::string>& args) {
    options o;
    std::vector<std::string> positional;
    for (detail::arg_reader r{args}; r.i < args.size(); ++r.i) {
        const std::string& a = args[r.i];
        if (a == "-h" || a == "--help") {
            o.command = "help";
            return o;
        }
        if (detail::set_option(o, r)) continue;
        if (a.size() > 1 && a[0] == '-') throw usage_error("unknown option '" + a + "'");
        positional.push_back(a);
    }
    detail::set_command(o, positional);
    return o;
}

}  // namespace emflow_sa
