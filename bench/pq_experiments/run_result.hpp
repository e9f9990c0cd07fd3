// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/run_result.hpp: what one run measured, and its CSV row.
#pragma once

#include "options.hpp"

#include <cstdint>
#include <ostream>
#include <string>

namespace pq_bench {

//! Measurements of one verified run. Phases that an experiment does not have are negative.
struct run_result {
    std::uint64_t memory_used_bytes = 0;  //!< the budget the implementation actually got
    std::string memory_note;              //!< how it was derived from --memory
    double seconds_push = -1;             //!< push-*-pop: push all
    double seconds_pop = -1;              //!< push-*-pop: pop all
    double seconds_prefill = -1;          //!< rewrite: fill with n ascending items (not measured)
    double seconds_rewrite = -1;          //!< rewrite: the bulk pop/push cycles
    std::uint64_t bulks = 0;              //!< rewrite: number of non-empty bulk cycles
    std::uint64_t bytes_read = 0;         //!< STXXL's read volume during the run
    std::uint64_t bytes_written = 0;      //!< STXXL's written volume during the run

    //! The measured time: push + pop, or the rewrite cycles.
    double seconds_total() const {
        return seconds_rewrite >= 0 ? seconds_rewrite : seconds_push + seconds_pop;
    }
};

//! Writes the CSV header line.
void write_csv_header(std::ostream& out);

//! Writes the CSV row of a run (with the machine, peak RSS and date taken now).
void write_csv_row(std::ostream& out, const options& o, const run_result& r);

}  // namespace pq_bench
