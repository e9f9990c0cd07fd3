// SPDX-License-Identifier: BSL-1.0
// emflow-graph: graph files, shortest paths, BFS and A* larger than memory (see --help). Every
// output is written under a temporary name and renamed when complete; every failure is one line
// on stderr and a distinct exit code (errors.hpp); progress and a summary go to stderr.
#include "errors.hpp"
#include "options.hpp"
#include "run.hpp"

#include <stxxl/bits/common/exceptions.h>
#include <emflow/external_memory.hpp>

#include <omp.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

namespace {

using namespace emflow_graph;

extern "C" void on_interrupt(int sig) {
    // the outputs have no name until complete (O_TMPFILE): nothing to remove
    const char msg[] = "emflow-graph: interrupted, no output written\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
    ::_exit(sig == SIGINT ? exit_interrupted : 128 + sig);
}

int fail(exit_code code, const std::string& what) {
    std::fprintf(stderr, "emflow-graph: %s\n", one_line(what).c_str());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    try {
        o = parse_args(std::vector<std::string>(argv + 1, argv + argc));
        if (o.command == "help") {
            std::fputs(usage_text(), stdout);
            return exit_ok;
        }
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_interrupt);
        if (o.threads > 0) omp_set_num_threads(int(o.threads));
        // STXXL reports its own doings on std::cout and std::cerr; the tool's output is its
        // progress and its errors, written with stdio.
        std::cout.rdbuf(nullptr);
        std::cerr.rdbuf(nullptr);
        return run(o);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "emflow-graph: %s (see emflow-graph --help)\n",
                     one_line(e.what()).c_str());
        return exit_usage;
    } catch (const tool_error& e) {
        return fail(e.code, e.what());
    } catch (const emflow::config_error& e) {
        return fail(exit_memory, e.what());
    } catch (const stxxl::io_error& e) {
        return fail(exit_io, std::string("I/O error (disk full?): ") + e.what());
    } catch (const std::system_error& e) {
        return fail(exit_io, e.what());
    } catch (const std::bad_alloc&) {
        return fail(exit_memory, "out of memory (lower --memory)");
    } catch (const std::exception& e) {
        return fail(exit_unexpected, e.what());
    }
}
