// SPDX-License-Identifier: BSL-1.0
// emflow-sa's commands for one index type: build (into an unnamed file, linked into place
// when complete) and check, with progress and a summary on stderr.
#pragma once

#include "disk_errors.hpp"
#include "errors.hpp"
#include "options.hpp"

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/compiled.hpp>
#include <emflow/timing.hpp>

#include <stxxl/mng>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>

namespace emflow_sa {

//! Opens the text file as a fresh pull node of bytes.
struct open_file_text {
    std::string path;  //!< the text
    //! A source over the whole file.
    emflow::file_source<std::uint8_t> operator()() const {
        return emflow::file_source<std::uint8_t>(path);
    }
};

//! The constructions' output: erased, the form emflow::sa compiles them for.
template <class Index>
using construction_sink = emflow::any_push_sink<Index>;

namespace detail {

using namespace emflow;
using namespace emflow::pipelines::sa;

//! The length of the file at path, or an input error naming it.
inline std::uint64_t input_length(const std::string& path) {
    try {
        return readable_file_size(path);
    } catch (const std::system_error& e) {
        throw tool_error(exit_input, e.what());
    }
}

//! The temporary disk's files: as asked, else 2 from a budget of 64 MiB on. Several files, even
//! on one device, each get one of STXXL's I/O threads, which serve one request at a time: with
//! two, a merge's reads and writes overlap on the device. Each file's buffers raise the smallest
//! budget that works by about 3 MiB, which small budgets keep for the work itself.
inline unsigned temporary_files(const options& o) {
    if (o.tmp_files) return o.tmp_files;
    return o.memory_bytes >= (std::uint64_t(64) << 20) ? 2 : 1;
}

//! Each temporary file's share of --tmp-capacity (0: none, the files grow): split so that the
//! files together hold no more than asked, and never 0.
inline std::uint64_t capacity_per_file(const options& o) {
    const unsigned files = temporary_files(o);
    return o.tmp_capacity / files + (o.tmp_capacity % files != 0);
}

//! Configures the temporary disk; an unusable directory is an output error.
inline void configure_disks(const options& o) {
    external_memory_options cfg;
    cfg.tmp_base = o.tmp_dir;
    cfg.disks.assign(temporary_files(o), disk_spec{capacity_per_file(o)});
    try {
        temporary_dir = configure_external_memory(cfg).dir.parent_path().string();
    } catch (const config_error& e) {
        throw tool_error(exit_output, e.what());
    }
}

inline sa_options make_sa_options(const options& o, progress* report) {
    sa_options cfg;
    cfg.memory_bytes = o.memory_bytes;
    cfg.mode = o.pipelining == "traditional" ? pipelining::traditional : pipelining::parallel;
    cfg.queue = o.queue == "stxxl" ? queue_kind::stxxl : queue_kind::parallel;
    cfg.report = report;
    return cfg;
}

inline double peak_rss_bytes() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) * 1024;
}

//! The most the temporary disk held at once so far (STXXL's block manager counts every block
//! allocated on it, emflow's runs and queues included; the outputs are files of their own).
inline double peak_disk_bytes() {
    return double(stxxl::block_manager::get_instance()->get_maximum_allocation());
}

//! One line: what was done, time, rate, peak memory and temporary disk, I/O volume per input
//! byte.
inline void print_summary(const char* what, std::uint64_t n, double seconds) {
    io_volume io = current_io_volume();
    double per_byte = n ? double(io.bytes_read + io.bytes_written) / double(n) : 0;
    std::fprintf(stderr,
                 "emflow-sa: %s %s in %.1f s (%s/s), peak memory %s, peak temporary disk %s, "
                 "I/O %.1f bytes per input byte (read %s, written %s)\n",
                 what, format_bytes(double(n)).c_str(), seconds,
                 format_bytes(seconds > 0 ? double(n) / seconds : 0).c_str(),
                 format_bytes(peak_rss_bytes()).c_str(), format_bytes(peak_disk_bytes()).c_str(),
                 per_byte, format_bytes(double(io.bytes_read)).c_str(),
                 format_bytes(double(io.bytes_written)).c_str());
}

//! Opens out (under its temporary name), noted in partial for the interrupt handler.
template <class Index>
void open_output(file_sink<Index>& out, char (&partial)[4096]) {
    try {
        out.open();
    } catch (const std::system_error& e) {
        throw tool_error(exit_output, e.what());
    }
    std::strncpy(partial, out.temporary_path().c_str(), sizeof partial - 1);
}

//! --tmp-capacity works by the process's file size limit (external_memory.hpp), which stops a
//! write at any position past it, in the outputs too: a build whose arrays (bytes each) would
//! pass it is refused before any work, where it would fail at its end. The capacity it advises
//! holds the temporary disk too (disk_errors.hpp).
inline void check_outputs_fit(const options& o, std::uint64_t n, std::uint64_t bytes) {
    const std::uint64_t limit = capacity_per_file(o);
    if (limit == 0 || bytes <= limit) return;
    const unsigned files = temporary_files(o);
    throw tool_error(exit_usage, "--tmp-capacity " + format_bytes(double(o.tmp_capacity)) +
                                     " gives " + std::to_string(files) + " temporary file(s) " +
                                     format_bytes(double(limit)) +
                                     " each, and the file size limit that " +
                                     "enforces it applies to the output too, which takes " +
                                     format_bytes(double(bytes)) + ": give " +
                                     capacity_option(advised_capacity(o, files, n)) + " (or none)");
}

using emflow::seconds_since;

template <class Index>
int build(const options& o, progress* report) {
    const std::uint64_t n = input_length(o.text);
    if (n > max_text_length<Index>())
        throw tool_error(exit_input, "'" + o.text + "' has " + std::to_string(n) +
                                         " bytes, more than " + std::to_string(o.index_bytes) +
                                         "-byte indices can address (use --index-bytes " +
                                         (o.index_bytes == 4 ? "5)" : "8)"));
    check_outputs_fit(o, n, n * sizeof(Index));
    configure_disks(o);
    file_sink<Index> out(o.output);
    open_output(out, partial_output);
    std::optional<file_sink<Index>> lcp_out;
    if (!o.lcp.empty()) open_output(lcp_out.emplace(o.lcp), partial_lcp_output);
    auto t0 = std::chrono::steady_clock::now();
    open_file_text text{o.text};
    construction_sink<Index> sink(out);
    if (lcp_out) {
        construction_sink<Index> lcp_sink(*lcp_out);
        build_suffix_and_lcp_arrays<Index>(text, n, sink, lcp_sink, make_sa_options(o, report));
    } else {
        build_suffix_array<Index>(parse_sa_algorithm(o.algorithm), text, n, sink,
                                  make_sa_options(o, report));
    }
    out.commit();
    partial_output[0] = 0;
    if (lcp_out) {
        lcp_out->commit();
        partial_lcp_output[0] = 0;
    }
    if (!o.quiet) {
        print_summary(lcp_out ? "built the suffix and LCP arrays of" : "built the suffix array of",
                      n, seconds_since(t0));
        if (lcp_out || parse_sa_algorithm(o.algorithm) == sa_algorithm::esais) {
            const esais_queue_time q = esais_queue_seconds();
            std::fprintf(stderr,
                         "emflow-sa: eSAIS priority queue: %.2f s in the naming passes, %.2f s in "
                         "the inducing passes\n",
                         q.naming, q.inducing);
        }
    }
    return exit_ok;
}

//! True if the file at path holds n entries of Index; otherwise says so on stderr.
template <class Index>
bool has_entries(const std::string& path, const char* what, std::uint64_t n) {
    const std::uint64_t bytes = input_length(path);
    if (bytes == n * sizeof(Index)) return true;
    std::fprintf(stderr,
                 "emflow-sa: not %s: '%s' has %llu bytes, %llu expected (%llu entries of %u "
                 "bytes)\n",
                 what, path.c_str(), (unsigned long long)bytes,
                 (unsigned long long)(n * sizeof(Index)), (unsigned long long)n,
                 unsigned(sizeof(Index)));
    return false;
}

template <class Index>
int check(const options& o, progress* report) {
    const std::uint64_t n = input_length(o.text);
    if (!has_entries<Index>(o.sa, "a suffix array", n)) return exit_check_failed;
    if (!o.lcp.empty() && !has_entries<Index>(o.lcp, "an LCP array", n)) return exit_check_failed;
    configure_disks(o);
    auto t0 = std::chrono::steady_clock::now();
    auto open_text = [&] { return file_source<std::uint8_t>(o.text); };
    auto open_sa = [&] { return file_source<Index>(o.sa); };
    check_result r =
        check_suffix_array<Index>(open_text, n, open_sa, n, make_sa_options(o, report));
    if (!r.ok) {
        std::fprintf(stderr, "emflow-sa: not a suffix array of '%s': %s\n", o.text.c_str(),
                     r.reason.c_str());
        return exit_check_failed;
    }
    if (!o.lcp.empty()) {
        r = check_lcp_array<Index>(
            open_text, n, [&](std::uint64_t k) { return file_source<Index>(o.sa, k); },
            [&](std::uint64_t k) { return file_source<Index>(o.lcp, k); }, n,
            make_sa_options(o, report));
        if (!r.ok) {
            std::fprintf(stderr, "emflow-sa: not the LCP array of '%s': %s\n", o.text.c_str(),
                         r.reason.c_str());
            return exit_check_failed;
        }
    }
    if (!o.quiet)
        print_summary(
            o.lcp.empty() ? "checked the suffix array of" : "checked the suffix and LCP arrays of",
            n, seconds_since(t0));
    std::printf("emflow-sa: ok: '%s' is the suffix array of '%s'%s\n", o.sa.c_str(), o.text.c_str(),
                o.lcp.empty() ? "" : (", and '" + o.lcp + "' its LCP array").c_str());
    return exit_ok;
}

}  // namespace detail

//! Runs o's command with indices of type Index.
template <class Index>
int run(const options& o) {
    std::optional<emflow::progress> report;
    if (!o.quiet) report.emplace(emflow::stderr_renderer());
    emflow::progress* p = report ? &*report : nullptr;
    try {
        return o.command == "build" ? detail::build<Index>(o, p) : detail::check<Index>(o, p);
    } catch (const stxxl::io_error& e) {
        throw tool_error(
            exit_io, detail::disk_error(o, detail::temporary_files(o), detail::input_length(o.text),
                                        os_error_of(e.what())));
    }
}

}  // namespace emflow_sa
