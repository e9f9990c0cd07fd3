// SPDX-License-Identifier: BSL-1.0
// emflow-graph's command line: the commands, their options, sizes with units, and the usage
// text. Bad arguments throw usage_error (exit code 2).
#pragma once

#include "errors.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace emflow_graph {

//! Everything the command line says.
struct options {
    std::string command;              //!< generate, import, sssp, bfs, astar, check, info, help
    std::vector<std::string> inputs;  //!< the positional arguments after the command
    std::string output;               //!< -o OUT
    std::string coordinates;          //!< --co FILE (import dimacs)
    std::string parents;              //!< --parents FILE (sssp, bfs, astar: write; check: check)
    std::uint64_t source = 0, target = 0;               //!< --source, --target
    bool has_target = false;                            //!< --target given
    bool has_source = false;                            //!< --source given
    int log_delta = -1;                                 //!< --delta K; -1: adaptive
    std::uint64_t scale = 16, edge_factor = 16;         //!< --scale, --edge-factor (kron)
    std::uint64_t vertices = 1 << 16, edges = 1 << 20;  //!< --vertices, --edges (uniform, road)
    std::uint64_t seed = 1;                             //!< --seed
    std::uint64_t max_weight = 255;                     //!< --max-weight (kron, uniform)
    std::uint64_t weight_divisor = 1;                   //!< --weight-divisor
    unsigned id_bytes = 4;                              //!< --id-bytes (import binary)
    bool weights = false;                               //!< --weights (import binary)
    bool undirected = false, drop_self_loops = false, drop_parallel = false;  //!< build options
    bool unit_weights = false;                                                //!< --bfs (check)
    std::uint64_t memory_bytes = 1ull << 30;                                  //!< --memory
    unsigned threads = 0;  //!< --threads; 0: all cores
    std::string tmp_dir;   //!< --tmp-dir
    bool quiet = false;    //!< -q
};

//! The --help text.
inline const char* usage_text() {
    return R"(emflow-graph: shortest paths, BFS and A* on graphs larger than memory.

Usage:
  emflow-graph generate kron|uniform|road -o GRAPH [options]   a seeded random graph
  emflow-graph import dimacs GR [--co CO] -o GRAPH [options]   a DIMACS .gr (and .co) file
  emflow-graph import snap FILE -o GRAPH [options]             "u v [w]" lines, '#' comments
  emflow-graph import binary FILE -o GRAPH [--id-bytes 4|8] [--weights]
  emflow-graph sssp GRAPH --source S -o DIST [--delta K]       shortest-path distances
  emflow-graph bfs GRAPH --source S -o DIST                    hop distances
  emflow-graph astar GRAPH --source S --target T               the distance from S to T
  emflow-graph check GRAPH DIST --source S [--bfs] [--parents P]  prove DIST (and P) right
  emflow-graph info GRAPH                                      counts and flags
  emflow-graph --help

GRAPH is emflow's CSR graph file. Vertex ids are 0-based everywhere (DIMACS vertex k is vertex
k-1). DIST holds one little-endian u64 per vertex, 18446744073709551615 if unreachable. A
parent file (--parents) holds one u64 per vertex too: the tail of the last edge of a shortest
path to it (d(v) = d(p) + w), 18446744073709551615 for the source and unreachable vertices.
Every output is written unnamed (O_TMPFILE) and linked in place when complete: nothing is left
after any kill (file systems without O_TMPFILE: a hidden name, left after SIGKILL).

Options:
  -o, --output OUT        the graph (generate, import) or distance file (sssp, bfs) to write
  --source S, --target T  vertices (0-based)
  --delta K               (sssp, astar) fix the bucket width to 2^K (default: adaptive, by
                          PMOD's merge/unmerge rule)
  --scale S               (kron) 2^S vertices (default 16)
  --edge-factor F         (kron) F * 2^S edges (default 16)
  --vertices N, --edges M (uniform: N and M; road: N) default 65536, 1048576
  --seed X                random seed (default 1)
  --max-weight W          (kron, uniform) weights uniform in 1..W (default 255)
  --weight-divisor D      (generate) every weight divided by D (default 1)
  --co FILE               (import dimacs) coordinates
  --id-bytes B, --weights (import binary) 4- or 8-byte ids; a u32 weight after each pair
  --undirected            (generate, import) every edge in both directions
  --drop-self-loops       (generate, import) leave out edges (v, v)
  --drop-parallel         (generate, import) keep only the lightest of parallel edges
  --parents FILE          (sssp, bfs, astar) also write the parents; (check) check them too
  --bfs                   (check) the distances are hop counts
  --memory SIZE           memory budget, e.g. 512MiB, 1GiB (default 1GiB); the searches hold
                          9 bytes per vertex in it (A*: 13; 29 on files without the A* scale)
  --threads N             worker threads (default: all cores)
  --tmp-dir DIR           where temporary disk files go (default $EMFLOW_TMPDIR, $TMPDIR,
                          /var/tmp); they are removed, also after a failure
  -q, --quiet             no progress and no summary on stderr

Exit codes: 0 success (check: the distances are right), 1 unexpected error, 2 bad command
line, 3 (check) the distances are wrong, 4 input missing, unreadable or malformed, 5 output
or temporary directory not writable, 6 disk full or I/O error, 7 memory budget too small,
130 interrupted.
)";
}

//! Parses an unsigned number.
inline std::uint64_t parse_number(const std::string& flag, const std::string& s) {
    std::size_t pos = 0;
    unsigned long long v = 0;
    try {
        if (!s.empty() && s[0] == '-') throw usage_error("");
        v = std::stoull(s, &pos);
    } catch (const std::exception&) {
        pos = 0;
    }
    if (pos == 0 || pos != s.size()) throw usage_error(flag + " needs a number, not '" + s + "'");
    return v;
}

//! Parses argv (without the program name).
inline options parse_args(const std::vector<std::string>& args) {
    options o;
    auto value = [&](std::size_t& i) -> const std::string& {
        if (i + 1 >= args.size()) throw usage_error(args[i] + " needs a value");
        return args[++i];
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto num = [&] { return parse_number(a, value(i)); };
        if (a == "-h" || a == "--help") {
            o.command = "help";
            return o;
        } else if (a == "-o" || a == "--output") {
            o.output = value(i);
        } else if (a == "--parents") {
            o.parents = value(i);
        } else if (a == "--co") {
            o.coordinates = value(i);
        } else if (a == "--source") {
            o.source = num(), o.has_source = true;
        } else if (a == "--target") {
            o.target = num(), o.has_target = true;
        } else if (a == "--delta") {
            o.log_delta = int(num());
            if (o.log_delta > 40) throw usage_error("--delta must be at most 40");
        } else if (a == "--scale") {
            o.scale = num();
        } else if (a == "--edge-factor") {
            o.edge_factor = num();
        } else if (a == "--vertices") {
            o.vertices = num();
        } else if (a == "--edges") {
            o.edges = num();
        } else if (a == "--seed") {
            o.seed = num();
        } else if (a == "--max-weight") {
            o.max_weight = num();
        } else if (a == "--weight-divisor") {
            o.weight_divisor = num();
        } else if (a == "--id-bytes") {
            o.id_bytes = unsigned(num());
        } else if (a == "--weights") {
            o.weights = true;
        } else if (a == "--undirected") {
            o.undirected = true;
        } else if (a == "--drop-self-loops") {
            o.drop_self_loops = true;
        } else if (a == "--drop-parallel") {
            o.drop_parallel = true;
        } else if (a == "--bfs") {
            o.unit_weights = true;
        } else if (a == "--memory") {
            o.memory_bytes = parse_size(value(i));
        } else if (a == "--threads") {
            o.threads = unsigned(num());
        } else if (a == "--tmp-dir") {
            o.tmp_dir = value(i);
        } else if (a == "-q" || a == "--quiet") {
            o.quiet = true;
        } else if (!a.empty() && a[0] == '-') {
            throw usage_error("unknown option " + a);
        } else if (o.command.empty()) {
            o.command = a;
        } else {
            o.inputs.push_back(a);
        }
    }
    return o;
}

}  // namespace emflow_graph
