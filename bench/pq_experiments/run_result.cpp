// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/run_result.cpp: the CSV format of pq_experiments.
#include "run_result.hpp"

#include "machine.hpp"

#include <iomanip>
#include <sstream>

namespace pq_bench {

namespace {

//! A quoted CSV field; commas and quotes become ';' and '\'' so that plain comma splitting
//! (awk -F, in bench/run-pq) still finds the columns.
std::string quoted(std::string s) {
    for (char& c : s) {
        if (c == ',') c = ';';
        if (c == '"') c = '\'';
    }
    return '"' + s + '"';
}

//! Seconds with millisecond resolution, or an empty field for a phase the run did not have.
std::string seconds(double s) {
    if (s < 0) return "";
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << s;
    return os.str();
}

}  // namespace

void write_csv_header(std::ostream& out) {
    out << "impl,experiment,item_bytes,volume_bytes,items,memory_bytes,memory_used_bytes,"
           "memory_note,threads,bulk_size,bulk_mode,bulks,seconds_push,seconds_pop,"
           "seconds_prefill,seconds_rewrite,seconds_total,items_per_s,bytes_read,"
           "bytes_written,peak_rss_bytes,cores,cpu_model,load_avg_1min,omp_wait_policy,io_method,"
           "seed,"
           "verified,date\n";
}

void write_csv_row(std::ostream& out, const options& o, const run_result& r) {
    const double total = r.seconds_total();
    const bool pops_in_bulks = o.impl == "ppq" || is_rewrite(o.exp);
    const char* bulk_mode = o.exp == experiment::asc_rbulk_rewrite ? "random-0-to-size"
                            : pops_in_bulks                        ? "fixed"
                                                                   : "single";
    out << o.impl << ',' << experiment_name(o.exp) << ',' << o.item_bytes << ',' << o.volume_bytes
        << ',' << o.items() << ',' << o.memory_bytes << ',' << r.memory_used_bytes << ','
        << quoted(r.memory_note) << ',' << o.threads << ','
        << (pops_in_bulks ? std::to_string(o.bulk_size) : "") << ',' << bulk_mode << ',' << r.bulks
        << ',' << seconds(r.seconds_push) << ',' << seconds(r.seconds_pop) << ','
        << seconds(r.seconds_prefill) << ',' << seconds(r.seconds_rewrite) << ',' << seconds(total)
        << ',' << std::fixed << std::setprecision(0)
        << (total > 0 ? static_cast<double>(o.items()) / total : 0.0) << ',' << r.bytes_read << ','
        << r.bytes_written << ',' << peak_rss_bytes() << ',' << cpu_cores() << ','
        << quoted(cpu_model()) << ',' << std::setprecision(2) << load_average() << ','
        << omp_wait_policy() << ',' << o.io_method << ',' << o.seed << ",yes," << utc_timestamp()
        << '\n';
}

}  // namespace pq_bench
