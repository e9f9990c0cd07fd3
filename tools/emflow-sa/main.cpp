// emflow-sa: builds and checks suffix arrays of texts larger than memory (see --help). The
// output is written under a temporary name and renamed when complete; every failure is one line
// on stderr and a distinct exit code (options.hpp); progress and a summary go to stderr.
#include "options.hpp"

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/build.hpp>
#include <emflow/pipelines/sa/checker.hpp>

#include <malloc.h>
#include <omp.h>
#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <system_error>

namespace {

using namespace emflow;
using namespace emflow::pipelines::sa;
using emflow_sa::options;

//! Exit codes (also in the usage text).
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
    exit_code code;
};

// The output's temporary file, removed by the signal handler (async-signal-safe: a plain array).
char g_partial_output[4096];

extern "C" void on_interrupt(int sig) {
    if (g_partial_output[0]) ::unlink(g_partial_output);
    const char msg[] = "emflow-sa: interrupted, no output written\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
    ::_exit(sig == SIGINT ? exit_interrupted : 128 + sig);
}

void install_interrupt_handlers() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_interrupt);
}

//! Keeps glibc from holding on to freed large buffers (run buffers, merge buffers): blocks of a
//! MiB and more are mapped and unmapped each time, so peak RSS follows the live memory.
void return_freed_memory_to_the_system() {
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
    ::mallopt(M_TRIM_THRESHOLD, 8 << 20);
}

//! The text's length, or an input error naming the file.
std::uint64_t text_length(const std::string& path) {
    try {
        return readable_file_size(path);
    } catch (const std::system_error& e) {
        throw tool_error(exit_input, e.what());
    }
}

//! Configures the temporary disk; an unusable directory is an output error.
void configure_disks(const options& o) {
    external_memory_config cfg;
    cfg.tmp_base = o.tmp_dir;
    cfg.disks = {disk_spec{o.tmp_capacity}};
    try {
        configure_external_memory(cfg);
    } catch (const config_error& e) {
        throw tool_error(exit_output, e.what());
    }
}

sa_config make_config(const options& o, progress* report) {
    sa_config cfg;
    cfg.memory_bytes = o.memory_bytes;
    cfg.mode = o.pipelining == "traditional" ? pipelining::traditional : pipelining::parallel;
    cfg.report = report;
    return cfg;
}

double peak_rss_bytes() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) * 1024;
}

//! One line: what was done, time, rate, peak memory, I/O volume per input byte.
void print_summary(const char* what, std::uint64_t n, double seconds) {
    io_volume io = current_io_volume();
    double per_byte = n ? double(io.bytes_read + io.bytes_written) / double(n) : 0;
    std::fprintf(stderr,
                 "emflow-sa: %s %s in %.1f s (%s/s), peak memory %s, I/O %.1f bytes per input "
                 "byte (read %s, written %s)\n",
                 what, format_bytes(double(n)).c_str(), seconds,
                 format_bytes(seconds > 0 ? double(n) / seconds : 0).c_str(),
                 format_bytes(peak_rss_bytes()).c_str(), per_byte,
                 format_bytes(double(io.bytes_read)).c_str(),
                 format_bytes(double(io.bytes_written)).c_str());
}

template <class Index>
int build(const options& o, progress* report) {
    const std::uint64_t n = text_length(o.text);
    if (n > max_text_length<Index>())
        throw tool_error(exit_input, "'" + o.text + "' has " + std::to_string(n) +
                                         " bytes, more than " + std::to_string(o.index_bytes) +
                                         "-byte indices can address (use --index-bytes " +
                                         (o.index_bytes == 4 ? "5)" : "8)"));
    configure_disks(o);
    file_sink<Index> out(o.output);
    try {
        out.open();
    } catch (const std::system_error& e) {
        throw tool_error(exit_output, e.what());
    }
    std::strncpy(g_partial_output, out.temporary_path().c_str(), sizeof g_partial_output - 1);
    auto t0 = std::chrono::steady_clock::now();
    build_suffix_array<Index>(parse_sa_algorithm(o.algorithm),
                              [&] { return file_source<std::uint8_t>(o.text); }, n, out,
                              make_config(o, report));
    out.commit();
    g_partial_output[0] = 0;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!o.quiet) print_summary("built the suffix array of", n, s);
    return exit_ok;
}

template <class Index>
int check(const options& o, progress* report) {
    const std::uint64_t n = text_length(o.text);
    const std::uint64_t sa_bytes = text_length(o.sa);
    if (sa_bytes != n * sizeof(Index)) {
        std::fprintf(stderr,
                     "emflow-sa: not a suffix array: '%s' has %llu bytes, %llu expected (%llu "
                     "entries of %u bytes)\n",
                     o.sa.c_str(), (unsigned long long)sa_bytes,
                     (unsigned long long)(n * sizeof(Index)), (unsigned long long)n, o.index_bytes);
        return exit_not_sa;
    }
    configure_disks(o);
    auto t0 = std::chrono::steady_clock::now();
    check_result r = check_suffix_array<Index>(
        [&] { return file_source<std::uint8_t>(o.text); }, n,
        [&] { return file_source<Index>(o.sa); }, n, make_config(o, report));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) {
        std::fprintf(stderr, "emflow-sa: not a suffix array of '%s': %s\n", o.text.c_str(),
                     r.reason.c_str());
        return exit_not_sa;
    }
    if (!o.quiet) print_summary("checked the suffix array of", n, s);
    return exit_ok;
}

template <class Index>
int run(const options& o) {
    std::optional<progress> report;
    if (!o.quiet) report.emplace(stderr_renderer());
    progress* p = report ? &*report : nullptr;
    return o.command == "build" ? build<Index>(o, p) : check<Index>(o, p);
}

int run_with_width(const options& o) {
    switch (o.index_bytes) {
        case 4: return run<std::uint32_t>(o);
        case 8: return run<std::uint64_t>(o);
        default: return run<uint40>(o);
    }
}

//! The message of e on one line.
std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

//! The operating system's words in an STXXL I/O error ("... rc=-1 : File too large: ..."), or
//! the whole message on one line.
std::string os_error_of(const std::string& what) {
    std::size_t rc = what.find("rc=");
    std::size_t from = rc == std::string::npos ? rc : what.find(" : ", rc);
    if (from == std::string::npos) return one_line(what);
    from += 3;
    return what.substr(from, what.find(':', from) - from);
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    try {
        o = emflow_sa::parse_args(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const emflow_sa::usage_error& e) {
        std::fprintf(stderr, "emflow-sa: %s (see emflow-sa --help)\n", e.what());
        return exit_usage;
    }
    if (o.command == "help") {
        std::fputs(emflow_sa::usage_text(), stdout);
        return exit_ok;
    }
    return_freed_memory_to_the_system();
    install_interrupt_handlers();
    if (o.threads > 0) {
        set_flow_concurrency(int(o.threads));
        omp_set_num_threads(int(o.threads));
    }
    // STXXL reports its own doings (merge passes, banners) on std::cout and std::cerr; the
    // tool's output is its progress and its errors, written with stdio.
    std::cout.rdbuf(nullptr);
    std::cerr.rdbuf(nullptr);
    try {
        return run_with_width(o);
    } catch (const tool_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", one_line(e.what()).c_str());
        return e.code;
    } catch (const config_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", one_line(e.what()).c_str());
        return exit_memory;
    } catch (const stxxl::io_error& e) {
        std::fprintf(stderr, "emflow-sa: I/O error (disk full, or --tmp-capacity reached?): %s\n",
                     os_error_of(e.what()).c_str());
        return exit_io;
    } catch (const std::system_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", one_line(e.what()).c_str());
        return exit_io;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "emflow-sa: out of memory (lower --memory)\n");
        return exit_memory;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", one_line(e.what()).c_str());
        return exit_unexpected;
    }
}
