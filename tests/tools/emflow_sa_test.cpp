// SPDX-License-Identifier: BSL-1.0
// emflow-sa as a user runs it: every algorithm and index width writes the bytes libdivsufsort
// gives; check accepts them and rejects mutated, truncated and wrong-width files (suffix and LCP
// arrays, the latter against Kasai's); build --lcp writes Kasai's LCP array; every error
// is one line with its exit code and leaves no output file and no temporary file behind.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sa_test_texts.hpp"
#include "test_env.hpp"

namespace fs = std::filesystem;
using emflow_test::text_bytes;

namespace {

struct run_result {
    int code;             // exit code
    std::string stderr_;  // what it printed there
    std::string stdout_;  // and there
};

std::string quote(const std::string& s) { return "'" + s + "'"; }

//! The contents of the text file at p, which is removed.
std::string take_text(const fs::path& p) {
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(p);
    return text;
}

//! Runs emflow-sa with args (a shell word list), capturing stderr and stdout.
run_result run_tool(const fs::path& dir, const std::string& args) {
    fs::path err = dir / "stderr.txt", out = dir / "stdout.txt";
    std::string cmd = std::string(EMFLOW_SA_PATH) + " " + args + " 2>" + quote(err.string()) +
                      " >" + quote(out.string());
    int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, take_text(err), take_text(out)};
}

//! The --tmp-capacity the message advises ("give --tmp-capacity 180MiB"), "" if none.
std::string advised_capacity(const std::string& err) {
    const std::string give = "give --tmp-capacity ";
    const std::size_t at = err.find(give);
    if (at == std::string::npos) return "";
    const std::size_t from = at + give.size(), end = err.find("MiB", from);
    return end == std::string::npos ? "" : err.substr(from, end + 3 - from);
}

void write_file(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::uint8_t> read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
}

//! The amount after label in text ("12.5 MiB", as the summary prints it), in bytes; -1 if absent.
double reported_bytes(const std::string& text, const std::string& label) {
    const std::size_t at = text.rfind(label);
    if (at == std::string::npos) return -1;
    std::istringstream in(text.substr(at + label.size()));
    double value = -1;
    std::string unit;
    in >> value >> unit;
    const std::vector<std::string> units{"B,", "KiB,", "MiB,", "GiB,", "TiB,"};
    for (std::size_t k = 0; k < units.size(); ++k, value *= 1024)
        if (unit == units[k]) return value;
    return -1;
}

//! The file format: each entry little-endian in width bytes.
std::vector<std::uint8_t> encode(const std::vector<std::uint64_t>& sa, unsigned width) {
    std::vector<std::uint8_t> out;
    for (std::uint64_t x : sa)
        for (unsigned b = 0; b < width; ++b) out.push_back(std::uint8_t(x >> (8 * b)));
    return out;
}

//! Entries of the directory other than the ones named.
std::size_t files_in(const fs::path& dir) {
    return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

//! True if process pid has a file of dir open: its output, unnamed (O_TMPFILE, "dir/#123
//! (deleted)") or under a hidden name.
bool writes_into(pid_t pid, const fs::path& dir) {
    std::error_code ec;
    for (const auto& fd : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
        const fs::path target = fs::read_symlink(fd.path(), ec);
        if (!ec && target.parent_path() == dir) return true;
    }
    return false;
}

//! The texts every algorithm and index width is run on: edge cases, runs over 65 535, deep
//! recursion.
std::vector<emflow_test::named_text> tool_texts(std::uint64_t seed) {
    return {{"empty", {}},
            {"two bytes", {0xFF, 0x00}},
            {"random sigma 4", emflow_test::random_text(200000, 4, seed)},
            {"runs over 65535", emflow_test::long_runs_text(200000, 140000, seed + 1)},
            {"fibonacci", emflow_test::fibonacci_text(50000)}};
}

//! The quoted paths, then --index-bytes width, a 16 MiB budget and -q.
std::string files_and_width(std::initializer_list<fs::path> files, unsigned width) {
    std::string args;
    for (const auto& f : files) args += quote(f.string()) + " ";
    return args + "--index-bytes " + std::to_string(width) + " --memory 16MiB -q";
}

//! One line of error output, naming the tool.
bool one_error_line(const std::string& err) {
    return err.rfind("emflow-sa: ", 0) == 0 && err.find('\n') == err.size() - 1;
}

//! Progress lines (if any), then one line of error output, naming the tool.
bool ends_with_error_line(const std::string& err) {
    std::size_t start = err.size() < 2 ? 0 : err.rfind('\n', err.size() - 2);
    return one_error_line(start == std::string::npos ? err : err.substr(start + 1));
}

}  // namespace

TEST_CASE("emflow-sa --help and bad command lines", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    auto help = run_tool(dir.path(), "--help");
    CHECK(help.code == 0);
    for (const char* bad :
         {"", "build", "build x", "frobnicate x", "build x -o y --memory lots",
          "build x -o y --index-bytes 3", "build x -o y --algorithm qsort",
          "build x -o y --queue fifo", "check x", "build x -o y --threads 0",
          "build x -o y --bogus", "build x -o y --tmp-files 0", "build x -o y --tmp-files 17",
          "build x -o y --algorithm dc3 --lcp z", "check x y --lcp",
          "build x -o y --algorithm doubling --lcp z", "build x -o y --lcp y"}) {
        INFO(bad);
        auto r = run_tool(dir.path(), bad);
        CHECK(r.code == 2);
        CHECK(one_error_line(r.stderr_));
    }
}

TEST_CASE("emflow-sa builds what libdivsufsort builds, and checks it", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "work";
    fs::create_directories(work);
    const auto texts = tool_texts(emflow_test::test_seed());
    const fs::path text = work / "text", sa = work / "text.sa";
    for (const auto& [name, t] : texts) {
        write_file(text, t);
        auto ref = emflow_test::reference_sa(t);
        for (const char* algo :
             {"dc3", "doubling", "quadrupling", "esais", "esais --queue stxxl"}) {
            for (unsigned width : {4u, 5u, 8u}) {
                INFO(name << ", " << algo << ", " << width << " bytes");
                auto r = run_tool(dir.path(), "build --algorithm " + std::string(algo) + " -o " +
                                                  files_and_width({sa, text}, width));
                CHECK(r.stderr_ == "");
                REQUIRE(r.code == 0);
                CHECK(read_file(sa) == encode(ref, width));
                auto c = run_tool(dir.path(), "check " + files_and_width({text, sa}, width));
                CHECK(c.code == 0);
                CHECK(c.stdout_ == "emflow-sa: ok: '" + sa.string() + "' is the suffix array of '" +
                                       text.string() + "'\n");
                CHECK(files_in(work) == 2);
            }
        }
    }
    // Progress and the summary go to stderr unless --quiet.
    write_file(text, texts[2].text);
    auto r =
        run_tool(dir.path(), "build --algorithm dc3 " + quote(text.string()) + " -o " +
                                 quote(sa.string()) + " --memory 16MiB --pipelining traditional");
    CHECK(r.code == 0);
    CHECK(r.stderr_.find("DC3") != std::string::npos);
    CHECK(r.stderr_.find("emflow-sa: built the suffix array of") != std::string::npos);
    CHECK(r.stderr_.find("peak memory") != std::string::npos);
    CHECK(reported_bytes(r.stderr_, "peak temporary disk ") == 0);  // this text fits in RAM
    CHECK(r.stderr_.find("bytes per input byte") != std::string::npos);
    // eSAIS, the default: its phases, and the time in its priority queue (for bench/run-sa)
    r = run_tool(dir.path(),
                 "build -o " + quote(sa.string()) + " " + quote(text.string()) + " --memory 16MiB");
    CHECK(r.code == 0);
    for (const char* line : {"eSAIS: classify: ", "\neSAIS: induce the suffix array: ",
                             "\nemflow-sa: eSAIS priority queue: "}) {
        INFO(line);
        CHECK(r.stderr_.find(line) != std::string::npos);
    }
    CHECK(reported_bytes(r.stderr_, "peak temporary disk ") > 0);  // its passes' vectors
}

// The blocks spread over one to four temporary files (the runs' blocks round-robin, the PPQ's
// too): the same array every time, and no file left. (Each file takes about 3 MiB of the
// budget, eSAIS's queue a little more: 32 MiB.)
TEST_CASE("emflow-sa --tmp-files: the same array from one to four files", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "files", tmp = dir.path() / "files-tmp";
    fs::create_directories(work);
    fs::create_directories(tmp);
    const auto t = emflow_test::random_text(1 << 20, 4, emflow_test::test_seed());
    const fs::path text = work / "text", sa = work / "text.sa";
    write_file(text, t);
    const auto expected = encode(emflow_test::reference_sa(t), 5);
    for (const char* algo : {"dc3", "esais"}) {
        for (unsigned files : {1u, 3u, 4u}) {
            INFO(algo << ", " << files << " files");
            auto r = run_tool(
                dir.path(), "build --algorithm " + std::string(algo) + " " + quote(text.string()) +
                                " -o " + quote(sa.string()) + " --memory 32MiB -q --tmp-dir " +
                                quote(tmp.string()) + " --tmp-files " + std::to_string(files));
            CHECK(r.stderr_ == "");
            REQUIRE(r.code == 0);
            CHECK(read_file(sa) == expected);
            CHECK(files_in(tmp) == 0);
        }
    }
}

TEST_CASE("emflow-sa build --lcp writes Kasai's LCP array, check --lcp accepts it", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "lcp-build";
    fs::create_directories(work);
    const auto texts = tool_texts(emflow_test::test_seed());
    const fs::path text = work / "text", sa = work / "text.sa", lcp = work / "text.lcp";
    for (const auto& [name, t] : texts) {
        write_file(text, t);
        const auto ref = emflow_test::reference_sa(t);
        const auto ref_lcp = emflow_test::reference_lcp(t, ref);
        for (unsigned width : {4u, 5u, 8u}) {
            INFO(name << ", " << width << " bytes");
            auto r = run_tool(dir.path(), "build --algorithm esais -o " + quote(sa.string()) +
                                              " --lcp " + quote(lcp.string()) + " " +
                                              files_and_width({text}, width));
            CHECK(r.stderr_ == "");
            REQUIRE(r.code == 0);
            CHECK(read_file(sa) == encode(ref, width));
            CHECK(read_file(lcp) == encode(ref_lcp, width));
            auto c = run_tool(dir.path(), "check --lcp " + quote(lcp.string()) + " " +
                                              files_and_width({text, sa}, width));
            CHECK(c.code == 0);
            CHECK(files_in(work) == 3);
        }
    }
}

TEST_CASE("emflow-sa check rejects wrong arrays with exit code 3", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    auto t = emflow_test::random_text(100000, 4, emflow_test::test_seed());
    auto ref = emflow_test::reference_sa(t);
    const fs::path text = dir.path() / "check-text", sa = dir.path() / "check-text.sa";
    write_file(text, t);
    auto check = [&](const std::vector<std::uint8_t>& bytes, unsigned width) {
        write_file(sa, bytes);
        return run_tool(dir.path(), "check " + quote(text.string()) + " " + quote(sa.string()) +
                                        " --index-bytes " + std::to_string(width) + " -q");
    };
    CHECK(check(encode(ref, 5), 5).code == 0);
    auto swapped = ref;
    std::swap(swapped[10], swapped[20000]);
    auto r = check(encode(swapped, 5), 5);
    CHECK(r.code == 3);
    CHECK(one_error_line(r.stderr_));
    auto dup = ref;
    dup[5] = dup[6];
    CHECK(check(encode(dup, 4), 4).code == 3);
    auto off = ref;
    off[7] = (off[7] + 1) % ref.size();
    CHECK(check(encode(off, 8), 8).code == 3);
    auto truncated = encode(ref, 5);
    truncated.resize(truncated.size() - 5);
    CHECK(check(truncated, 5).code == 3);
    CHECK(check(encode(ref, 5), 4).code == 3);  // wrong width
    CHECK(check(encode(ref, 4), 5).code == 3);
}

TEST_CASE("emflow-sa check --lcp accepts Kasai's LCP array and rejects mutations", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    const auto t = emflow_test::long_runs_text(100000, 300, emflow_test::test_seed());
    const auto sa = emflow_test::reference_sa(t);
    const auto lcp = emflow_test::reference_lcp(t, sa);
    const fs::path text = dir.path() / "lcp-text", sa_file = dir.path() / "lcp-text.sa",
                   lcp_file = dir.path() / "lcp-text.lcp";
    write_file(text, t);
    auto check = [&](const std::vector<std::uint64_t>& s, const std::vector<std::uint64_t>& l,
                     unsigned width) {
        write_file(sa_file, encode(s, width));
        write_file(lcp_file, encode(l, width));
        return run_tool(dir.path(), "check --lcp " + quote(lcp_file.string()) + " " +
                                        files_and_width({text, sa_file}, width));
    };
    for (unsigned width : {4u, 5u, 8u}) {
        INFO(width << " bytes");
        auto ok = check(sa, lcp, width);
        CHECK(ok.stderr_ == "");
        CHECK(ok.code == 0);
    }
    auto larger = lcp;
    ++larger[777];
    auto r = check(sa, larger, 5);
    CHECK(r.code == 3);
    CHECK(one_error_line(r.stderr_));
    CHECK(r.stderr_.find("LCP[777]") != std::string::npos);
    auto smaller = lcp;
    for (std::size_t k = 1; k < smaller.size(); ++k)
        if (smaller[k] > 0) {
            --smaller[k];
            break;
        }
    CHECK(check(sa, smaller, 4).code == 3);
    auto first = lcp;
    first[0] = 1;
    CHECK(check(sa, first, 8).code == 3);
    auto truncated = lcp;
    truncated.pop_back();
    CHECK(check(sa, truncated, 5).code == 3);
    auto swapped = sa;  // a wrong suffix array fails before its LCP array is looked at
    std::swap(swapped[1], swapped[2]);
    r = check(swapped, lcp, 5);
    CHECK(r.code == 3);
    CHECK(r.stderr_.find("not a suffix array") != std::string::npos);
}

TEST_CASE("emflow-sa errors: one line, distinct exit code, nothing left behind", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "errors", tmp = dir.path() / "errors-tmp";
    fs::create_directories(work);
    fs::create_directories(tmp);
    const fs::path text = work / "text", sa = work / "text.sa";
    write_file(text, emflow_test::random_text(4 << 20, 256, emflow_test::test_seed()));
    const std::string build = "build " + quote(text.string()) + " -o " + quote(sa.string()) +
                              " --tmp-dir " + quote(tmp.string()) + " ";
    auto expect = [&](const std::string& args, int code) {
        INFO(args);
        auto r = run_tool(dir.path(), args);
        CHECK(r.code == code);
        CHECK(ends_with_error_line(r.stderr_));
        CHECK(r.stderr_.find("emflow-sa: emflow") == std::string::npos);  // one prefix
        CHECK(r.stdout_ == "");
        CHECK_FALSE(fs::exists(sa));
        CHECK(files_in(work) == 1);  // the text only: no partial output under any name
        CHECK(files_in(tmp) == 0);
    };
    expect("build " + quote((work / "missing").string()) + " -o " + quote(sa.string()), 4);
    expect("build " + quote(work.string()) + " -o " + quote(sa.string()), 4);  // a directory
    expect("build " + quote(text.string()) + " -o " + quote((work / "no/such/dir/x.sa").string()),
           5);
    expect("build " + quote(text.string()) + " -o " + quote(sa.string()) + " --tmp-dir " +
               quote((work / "missing-tmp").string()),
           5);
    expect(build + "--memory 64KiB", 7);
    expect(build + "--memory 64KiB --algorithm dc3", 7);
    // 16 MiB is enough for eSAIS with the one temporary file a small budget gets by default,
    // not with two, whose buffers take 3 MiB more
    expect(build + "--memory 16MiB --tmp-files 2", 7);
    // the temporary disk runs full (24 MiB: room for the 20 MiB output, whose writes the file
    // size limit that enforces the capacity stops too, but not for the work)
    const std::string full_disk = "--memory 16MiB --tmp-capacity 24MiB";
    expect(build + full_disk, 6);
    auto full = run_tool(dir.path(), build + full_disk);
    CHECK(full.stderr_.find("emflow-sa: temporary disk full (" + tmp.string() +
                            "): --tmp-capacity 24.0 MiB reached; give --tmp-capacity ") !=
          std::string::npos);
    expect(build + full_disk + " --algorithm dc3", 6);
    expect(build + full_disk + " --queue stxxl", 6);
    expect(build + full_disk + " --lcp " + quote((work / "text.lcp").string()), 6);
    // a capacity below the output's size: refused before any work, naming what would do
    auto r = run_tool(dir.path(), build + "--memory 16MiB --tmp-capacity 19MiB");
    CHECK(r.code == 2);
    CHECK(r.stderr_.find("the output too, which takes 20.0 MiB: give --tmp-capacity ") !=
          std::string::npos);
    CHECK(r.stderr_.find("eSAIS") == std::string::npos);       // no phase began
    expect(build + "--memory 64MiB --tmp-capacity 39MiB", 2);  // two files of 19.5 MiB
    // with the LCP array: neither output left behind
    expect(build + "--lcp " + quote((work / "no/such/dir/x.lcp").string()), 5);

    // A text longer than 4-byte indices address: refused before any work (a sparse file).
    const fs::path huge = work / "huge";
    { std::ofstream(huge).put('x'); }
    fs::resize_file(huge, (std::uint64_t(1) << 32) + 10);
    r = run_tool(dir.path(), "build " + quote(huge.string()) + " -o " + quote(sa.string()) +
                                 " --index-bytes 4");
    CHECK(r.code == 4);
    CHECK(r.stderr_.find("--index-bytes 5") != std::string::npos);
    fs::remove(huge);
}

// What a refused or failed --tmp-capacity advises works: the build then runs and writes the
// array, which check accepts (saying so on stdout).
TEST_CASE("emflow-sa --tmp-capacity: following the advice works", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "advice", tmp = dir.path() / "advice-tmp";
    fs::create_directories(work);
    fs::create_directories(tmp);
    const auto t = emflow_test::random_text(4 << 20, 256, emflow_test::test_seed());
    const fs::path text = work / "text", sa = work / "text.sa";
    write_file(text, t);
    const std::string files = quote(text.string()) + " -o " + quote(sa.string()) +
                              " --memory 16MiB --tmp-dir " + quote(tmp.string());
    for (const char* algo : {"esais", "dc3"}) {
        // 19 MiB: below the output, refused (2); 24 MiB: the temporary disk runs full (6)
        for (const auto& [capacity, code] :
             {std::pair<const char*, int>{"19MiB", 2}, std::pair<const char*, int>{"24MiB", 6}}) {
            const std::string build = "build --algorithm " + std::string(algo) + " " + files;
            INFO(algo << ", --tmp-capacity " << capacity);
            auto r = run_tool(dir.path(), build + " --tmp-capacity " + capacity);
            REQUIRE(r.code == code);
            const std::string advice = advised_capacity(r.stderr_);
            INFO(r.stderr_);
            REQUIRE(advice != "");
            r = run_tool(dir.path(), build + " -q --tmp-capacity " + advice);
            INFO("then --tmp-capacity " << advice << ": " << r.stderr_);
            REQUIRE(r.code == 0);
            CHECK(files_in(tmp) == 0);
            auto c = run_tool(dir.path(), "check " + quote(text.string()) + " " +
                                              quote(sa.string()) + " --memory 16MiB -q");
            CHECK(c.code == 0);
            CHECK(c.stdout_.find("emflow-sa: ok: ") == 0);
            fs::remove(sa);
        }
    }
}

// The temporary disk a little larger each time, until the build fits: every run that does not
// fit stops with exit code 6 and leaves nothing behind, the one that fits writes Kasai's arrays.
// The disk runs full in every step that holds more than the ones before it (a step's progress
// line is its last one: printed as it ends, also by an error). On a random text of four letters
// each of the three that hold most does: naming the S*-substrings, the S* LCP search, and the
// inducing passes with their four arrays of positions and LCPs.
TEST_CASE("emflow-sa build: the temporary disk running full in each step", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "full-steps", tmp = dir.path() / "full-steps-tmp";
    fs::create_directories(work);
    fs::create_directories(tmp);
    const auto t = emflow_test::random_text(1 << 20, 4, emflow_test::test_seed());
    const auto ref = emflow_test::reference_sa(t);
    const fs::path text = work / "text", sa = work / "text.sa", lcp = work / "text.lcp";
    write_file(text, t);
    // Without the LCP array the inducing passes hand their chain ends over as sorted runs
    // (position_runs), with it as a sorted vector: both paths run the disk full.
    for (bool with_lcp : {true, false}) {
        INFO((with_lcp ? "with" : "without") << " the LCP array");
        std::vector<std::string> failed_in;  // the step each failing run stopped in
        // Steps of 512 KiB without the LCP array: its inducing needs under 1.5 MiB more than
        // sorting the S*-substrings, so steps of 2 MiB can jump from one to past the other.
        const unsigned step_kib = with_lcp ? 2048 : 512;
        for (unsigned kib = 6 << 10;; kib += step_kib) {  // 6 MiB: the least at this budget
            INFO("--tmp-capacity " << kib << "KiB");
            REQUIRE(kib <= (256u << 10));
            auto r = run_tool(dir.path(),
                              "build --algorithm esais " + quote(text.string()) + " -o " +
                                  quote(sa.string()) +
                                  (with_lcp ? " --lcp " + quote(lcp.string()) : std::string()) +
                                  " --memory 16MiB --tmp-dir " + quote(tmp.string()) +
                                  " --tmp-capacity " + std::to_string(kib) + "KiB");
            CHECK(files_in(tmp) == 0);
            if (r.code == 0) {
                // the summary's peak (0.1 MiB rounding) within the capacity it ran under
                const double peak = reported_bytes(r.stderr_, "peak temporary disk ");
                CHECK(peak > 0);
                CHECK(peak <= kib * 1024.0 + 0.05 * (1 << 20));
                CHECK(read_file(sa) == encode(ref, 5));
                if (with_lcp)
                    CHECK(read_file(lcp) == encode(emflow_test::reference_lcp(t, ref), 5));
                break;
            }
            REQUIRE(r.code == 6);
            CHECK(ends_with_error_line(r.stderr_));
            CHECK(files_in(work) == 1);
            const std::string err = "\n" + r.stderr_;
            const std::size_t last = err.rfind("\neSAIS: ");
            REQUIRE(last != std::string::npos);
            const std::string step = err.substr(last + 1, err.find(':', last + 8) - last - 1);
            if (failed_in.empty() || failed_in.back() != step) failed_in.push_back(step);
        }
        std::string steps;
        for (const auto& s : failed_in) steps += s + "; ";
        INFO("failed in: " << steps);
        CHECK(failed_in.size() >= (with_lcp ? 3u : 2u));  // with it: the S* LCPs too
        CHECK(failed_in.back() == "eSAIS: induce the suffix array");
        fs::remove(sa);
        fs::remove(lcp);
    }
}

TEST_CASE("emflow-sa interrupted: no output, no temporary file", "[tools]") {
    auto& dir = emflow_test::configure_test_disks();
    fs::path work = dir.path() / "interrupted", tmp = dir.path() / "interrupted-tmp";
    fs::create_directories(work);
    fs::create_directories(tmp);
    const fs::path text = work / "text", sa = work / "text.sa";
    write_file(text, emflow_test::random_text(16 << 20, 2, emflow_test::test_seed()));
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 2);
        ::execl(EMFLOW_SA_PATH, EMFLOW_SA_PATH, "build", text.c_str(), "-o", sa.c_str(),
                "--algorithm", "doubling", "--memory", "16MiB", "--tmp-dir", tmp.c_str(),
                static_cast<char*>(nullptr));
        ::_exit(99);
    }
    // Wait until the output is open (the run is under way), then interrupt it.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!writes_into(pid, fs::canonical(work)) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);  // not 0: the run was still under way
    CHECK_FALSE(fs::exists(sa));
    CHECK(files_in(work) == 1);
    CHECK(files_in(tmp) == 0);
}
