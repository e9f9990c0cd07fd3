// SPDX-License-Identifier: BSL-1.0
// pq_experiments: runs one of the PPQ paper's priority-queue experiments (section 4) on one
// implementation, verifies every popped item, and prints one CSV row. See bench/README.md.
#include "experiments.hpp"
#include "implementations.hpp"
#include "options.hpp"
#include "run_result.hpp"

#include <emflow/external_memory.hpp>

#include <omp.h>

#include <iostream>
#include <string>
#include <vector>

namespace {

//! The implementations built into this binary, as --impl names.
const std::vector<std::string> available_impls = {"ppq", "stxxl_pq", "stxxl_sorter",
                                                  "buffer_tree_pq"};

pq_bench::run_result run(const pq_bench::options& o) {
    if (o.impl == "ppq") return pq_bench::run_ppq(o);
    if (o.impl == "stxxl_pq") return pq_bench::run_stxxl_pq(o);
    if (o.impl == "buffer_tree_pq") return pq_bench::run_buffer_tree_pq(o);
    return pq_bench::run_stxxl_sorter(o);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {  // before STXXL is touched
            std::cout << pq_bench::usage();
            return 0;
        }
        if (a == "--list-impls") {  // for bench/run-pq
            for (const std::string& impl : available_impls) std::cout << impl << "\n";
            return 0;
        }
    }
    // STXXL prints its messages to std::cout: send them to stderr, keep stdout for the CSV.
    std::ostream csv(std::cout.rdbuf());
    std::cout.rdbuf(std::cerr.rdbuf());
    try {
        const pq_bench::options o = pq_bench::parse_options(args);
        emflow::external_memory_options cfg;
        cfg.tmp_base = o.tmp_dir;
        cfg.method = emflow::parse_io_method(o.io_method);
        emflow::configure_external_memory(cfg);  // disk files are unlinked at once: no leftovers
        omp_set_num_threads(static_cast<int>(o.threads));

        const pq_bench::run_result r = run(o);
        if (o.print_header) pq_bench::write_csv_header(csv);
        pq_bench::write_csv_row(csv, o, r);
        return 0;
    } catch (const pq_bench::usage_error& e) {
        std::cerr << "pq_experiments: " << e.what() << "\n" << pq_bench::usage();
        return 2;
    } catch (const pq_bench::verification_error& e) {
        std::cerr << "pq_experiments: VERIFICATION FAILED: " << e.what() << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "pq_experiments: error: " << e.what() << "\n";
        return 1;
    }
}
