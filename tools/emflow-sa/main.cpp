// SPDX-License-Identifier: BSL-1.0
// emflow-sa: builds and checks suffix arrays of texts larger than memory (see --help). The
// output is written unnamed (O_TMPFILE) and linked into place when complete; every failure is one
// line on stderr and a distinct exit code (errors.hpp); progress and a summary go to stderr.
#include "errors.hpp"
#include "options.hpp"
#include "run.hpp"

#include <oneapi/tbb/global_control.h>
#include <stxxl/bits/common/exceptions.h>
#include <emflow/external_memory.hpp>
#include <emflow/flow_runtime.hpp>

#include <omp.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

char emflow_sa::partial_output[4096];
char emflow_sa::partial_lcp_output[4096];
std::string emflow_sa::temporary_dir;

namespace {

using namespace emflow_sa;

extern "C" void on_interrupt(int sig) {
    if (partial_output[0]) ::unlink(partial_output);
    if (partial_lcp_output[0]) ::unlink(partial_lcp_output);
    const char msg[] = "emflow-sa: interrupted, no output written\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
    ::_exit(sig == SIGINT ? exit_interrupted : 128 + sig);
}

void install_interrupt_handlers() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_interrupt);
}

//! glibc's malloc settings for a run whose memory is a few large buffers (run buffers, merge
//! buffers, disk blocks) allocated and freed phase by phase: blocks of 128 KiB and more are mapped
//! and unmapped each time, so peak RSS follows the live memory instead of what glibc keeps
//! (disk blocks of DC3's many small sorts fragment the heap otherwise); and the large ones
//! are backed by transparent huge pages, which cuts the page faults of first touching hundreds
//! of MiB per sorter (a third less time on the sorts). Only settable at process start: the tool
//! runs itself again with them once.
constexpr const char* malloc_tunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=131072:"
    "glibc.malloc.trim_threshold=8388608";

void restart_with_malloc_tunables(char** argv) {
    if (std::getenv("EMFLOW_SA_TUNED")) return;
    std::string tunables = malloc_tunables;
    if (const char* t = std::getenv("GLIBC_TUNABLES"); t && *t) tunables += std::string(":") + t;
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
    ::setenv("EMFLOW_SA_TUNED", "1", 1);
    ::execv("/proc/self/exe", argv);  // on failure: go on untuned
}

int run_with_width(const options& o) {
    switch (o.index_bytes) {
        case 4:
            return run<std::uint32_t>(o);
        case 8:
            return run<std::uint64_t>(o);
        default:
            return run<emflow::uint40>(o);
    }
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    try {
        o = parse_args(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const usage_error& e) {
        std::fprintf(stderr, "emflow-sa: %s (see emflow-sa --help)\n", e.what());
        return exit_usage;
    }
    if (o.command == "help") {
        std::fputs(usage_text(), stdout);
        return exit_ok;
    }
    restart_with_malloc_tunables(argv);
    install_interrupt_handlers();
    // oneTBB caps its workers at the cores unless told otherwise: --threads is what it says.
    std::optional<tbb::global_control> parallelism;
    if (o.threads > 0) {
        parallelism.emplace(tbb::global_control::max_allowed_parallelism, o.threads);
        emflow::set_flow_concurrency(int(o.threads));
        omp_set_num_threads(int(o.threads));
    }
    // STXXL reports its own doings (merge passes, banners) on std::cout and std::cerr; the
    // tool's output is its progress and its errors, written with stdio.
    std::cout.rdbuf(nullptr);
    std::cerr.rdbuf(nullptr);
    try {
        return run_with_width(o);
    } catch (const tool_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", message_of(e.what()).c_str());
        return e.code;
    } catch (const emflow::config_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", message_of(e.what()).c_str());
        return exit_memory;
    } catch (const stxxl::io_error& e) {
        std::fprintf(stderr, "emflow-sa: I/O error (disk full, or --tmp-capacity reached?): %s\n",
                     os_error_of(e.what()).c_str());
        return exit_io;
    } catch (const std::system_error& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", message_of(e.what()).c_str());
        return exit_io;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "emflow-sa: out of memory (lower --memory)\n");
        return exit_memory;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "emflow-sa: %s\n", message_of(e.what()).c_str());
        return exit_unexpected;
    }
}
