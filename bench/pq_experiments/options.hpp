// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/options.hpp: the command line of pq_experiments.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace pq_bench {

//! A bad command line; main() prints it with the usage and exits with status 2.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

//! The four experiments of the paper's section 4.
enum class experiment { push_rand_pop, push_asc_pop, asc_rbulk_rewrite, bulk_rewrite };

//! One benchmark run.
struct options {
    std::string impl;                            //!< ppq, stxxl_pq, stxxl_sorter or buffer_tree_pq
    experiment exp = experiment::push_rand_pop;  //!< what to run
    std::uint64_t volume_bytes = 64ull << 20;    //!< bytes of items (n = volume / item bytes)
    std::uint64_t memory_bytes = 16ull << 20;    //!< the queue's (or sorter's) RAM budget
    std::uint64_t bulk_size = 0;                 //!< 0: the experiment's default
    unsigned threads = 0;                        //!< 0: all hardware threads
    unsigned item_bytes = 8;                     //!< 8 or 24
    std::uint64_t seed = 1;                      //!< keys and random bulk sizes
    std::string io_method = "syscall";           //!< STXXL file access method
    std::string tmp_dir;                         //!< base of the private disk directory
    bool print_header = false;                   //!< print the CSV header before the row

    //! Number of items: volume / item size.
    std::uint64_t items() const { return volume_bytes / item_bytes; }
};

//! The experiment's name as written on the command line and in the CSV.
const char* experiment_name(experiment e);

//! True for the experiments that rewrite the queue in bulks.
inline bool is_rewrite(experiment e) {
    return e == experiment::asc_rbulk_rewrite || e == experiment::bulk_rewrite;
}

//! Parses "4GiB", "512MiB", "1.5GB", "640000", "64k"; throws usage_error.
std::uint64_t parse_size(const std::string& text);

//! Parses the command line (without argv[0]) and fills in defaults; throws usage_error.
options parse_options(const std::vector<std::string>& args);

//! The usage text.
const char* usage();

}  // namespace pq_bench
