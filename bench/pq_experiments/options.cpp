// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/options.cpp: command-line parsing for pq_experiments.
#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace pq_bench {

const char* experiment_name(experiment e) {
    switch (e) {
        case experiment::push_rand_pop:
            return "push-rand-pop";
        case experiment::push_asc_pop:
            return "push-asc-pop";
        case experiment::asc_rbulk_rewrite:
            return "asc-rbulk-rewrite";
        default:
            return "bulk-rewrite";
    }
}

const char* usage() {
    return "usage: pq_experiments --impl {ppq,stxxl_pq,stxxl_sorter,buffer_tree_pq}\n"
           "         --experiment {push-rand-pop,push-asc-pop,asc-rbulk-rewrite,bulk-rewrite}\n"
           "         [--volume 64MiB] [--memory 16MiB] [--bulk-size N] [--threads N]\n"
           "         [--item-bytes {8,24}] [--seed N] [--io {syscall,linuxaio,mmap}]\n"
           "         [--tmp-dir DIR] [--header]\n"
           "       pq_experiments --list-impls\n"
           "Prints one CSV row (with --header: the header line first). The bulk size is the\n"
           "fixed bulk of bulk-rewrite (default 640000), the largest random bulk of\n"
           "asc-rbulk-rewrite (default 640000) and the PPQ's bulk_pop size in the pop phase of\n"
           "push-*-pop (default 1048576). stxxl_sorter runs only push-rand-pop and push-asc-pop.\n"
           "Exit status: 0 verified, 1 error, 2 bad usage, 3 verification failed.\n";
}

std::uint64_t parse_size(const std::string& text) {
    std::size_t end = 0;
    double value = 0;
    try {
        value = std::stod(text, &end);
    } catch (const std::exception&) {
        throw usage_error("not a size: '" + text + "'");
    }
    const std::string unit = text.substr(end);
    double factor = 1;
    if (unit.empty() || unit == "B")
        factor = 1;
    else if (unit == "k" || unit == "K" || unit == "KB")
        factor = 1e3;
    else if (unit == "M" || unit == "MB")
        factor = 1e6;
    else if (unit == "G" || unit == "GB")
        factor = 1e9;
    else if (unit == "KiB")
        factor = 1024.0;
    else if (unit == "MiB")
        factor = 1024.0 * 1024;
    else if (unit == "GiB")
        factor = 1024.0 * 1024 * 1024;
    else if (unit == "TiB")
        factor = 1024.0 * 1024 * 1024 * 1024;
    else
        throw usage_error("unknown unit in size '" + text + "'");
    if (!(value >= 0) || !std::isfinite(value)) throw usage_error("bad size '" + text + "'");
    return static_cast<std::uint64_t>(std::llround(value * factor));
}

namespace {

experiment parse_experiment(const std::string& name) {
    for (experiment e : {experiment::push_rand_pop, experiment::push_asc_pop,
                         experiment::asc_rbulk_rewrite, experiment::bulk_rewrite})
        if (name == experiment_name(e)) return e;
    throw usage_error("unknown experiment '" + name + "'");
}

std::uint64_t parse_number(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-')
        throw usage_error(flag + " expects a non-negative integer, got '" + text + "'");
    return v;
}

void validate(options& o) {
    if (o.impl != "ppq" && o.impl != "stxxl_pq" && o.impl != "stxxl_sorter" &&
        o.impl != "buffer_tree_pq")
        throw usage_error(o.impl.empty() ? "--impl is required"
                                         : "unknown --impl '" + o.impl + "'");
    if (o.item_bytes != 8 && o.item_bytes != 24) throw usage_error("--item-bytes must be 8 or 24");
    if (o.items() == 0) throw usage_error("--volume holds no item");
    if (o.memory_bytes == 0) throw usage_error("--memory must be positive");
    if (o.impl == "stxxl_sorter" && is_rewrite(o.exp))
        throw usage_error("stxxl_sorter cannot run " + std::string(experiment_name(o.exp)) +
                          " (a sorter has no interleaved pushes and pops)");
    if (o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());
    if (o.bulk_size == 0) o.bulk_size = is_rewrite(o.exp) ? 640000 : 1u << 20;
}

}  // namespace

options parse_options(const std::vector<std::string>& args) {
    options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        if (flag == "--header") {
            o.print_header = true;
            continue;
        }
        if (i + 1 >= args.size()) throw usage_error("missing value after " + flag);
        const std::string& value = args[++i];
        if (flag == "--impl")
            o.impl = value;
        else if (flag == "--experiment")
            o.exp = parse_experiment(value);
        else if (flag == "--volume")
            o.volume_bytes = parse_size(value);
        else if (flag == "--memory")
            o.memory_bytes = parse_size(value);
        else if (flag == "--bulk-size")
            o.bulk_size = parse_size(value);
        else if (flag == "--threads")
            o.threads = static_cast<unsigned>(parse_number(flag, value));
        else if (flag == "--item-bytes")
            o.item_bytes = static_cast<unsigned>(parse_number(flag, value));
        else if (flag == "--seed")
            o.seed = parse_number(flag, value);
        else if (flag == "--io")
            o.io_method = value;
        else if (flag == "--tmp-dir")
            o.tmp_dir = value;
        else
            throw usage_error("unknown option '" + flag + "'");
    }
    validate(o);
    return o;
}

}  // namespace pq_bench
