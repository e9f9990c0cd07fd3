// SPDX-License-Identifier: BSL-1.0
// bench/sa/sa_floor: the in-memory floor and the test texts of bench/run-sa.
//   sa_floor divsufsort TEXT OUT WIDTH   suffix array by libdivsufsort in RAM, written like
//                                        emflow-sa writes it; prints "seconds" (sorting only)
//   sa_floor kasai TEXT SA LCP WIDTH     the same suffix array, and the LCP array by Kasai et
//                                        al.'s scan in text order (in its Phi form: the LCPs
//                                        by text position in one array, then in suffix order);
//                                        prints the seconds of both (sorting and LCP only)
//   sa_floor random N SIGMA SEED OUT     N random bytes over SIGMA symbols
#include <divsufsort64.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <emflow/timing.hpp>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

//! The file at path, or empty with an error message.
bool read_text(const char* path, std::vector<std::uint8_t>& t) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        std::cerr << "sa_floor: cannot read " << path << "\n";
        return false;
    }
    t.resize(std::size_t(in.tellg()));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(t.data()), std::streamsize(t.size()));
    return bool(in);
}

//! Writes at(0..n-1) as little-endian integers of width bytes, as emflow-sa writes its arrays.
template <class At>
bool write_entries(const char* path, std::size_t n, unsigned width, At at) {
    std::vector<std::uint8_t> bytes(std::size_t(1) << 20);
    std::ofstream out(path, std::ios::binary);
    std::size_t fill = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t x = at(k);
        for (unsigned b = 0; b < width; ++b) bytes[fill++] = std::uint8_t(x >> (8 * b));
        if (fill + width > bytes.size()) {
            out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(fill));
            fill = 0;
        }
    }
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(fill));
    return bool(out);
}

using emflow::seconds_since;

//! The LCP array of t with suffix array sa, by text position (PLCP, Kasai et al.'s order: each
//! next position's LCP is at least the last one minus 1), then read in suffix order by the
//! caller: plcp[sa[k]] = LCP[k]. Pos is the narrowest integer that holds n.
template <class Pos>
std::vector<Pos> permuted_lcp(const std::vector<std::uint8_t>& t,
                              const std::vector<saidx64_t>& sa) {
    const std::size_t n = t.size();
    std::vector<Pos> plcp(n);  // first phi: the suffix before each in suffix order (n: none)
    for (std::size_t k = 0; k < n; ++k) plcp[std::size_t(sa[k])] = Pos(k ? sa[k - 1] : n);
    std::size_t l = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = plcp[i];
        if (j == n) {
            plcp[i] = 0;
            l = 0;
            continue;
        }
        while (i + l < n && j + l < n && t[i + l] == t[j + l]) ++l;
        plcp[i] = Pos(l);
        if (l > 0) --l;
    }
    return plcp;
}

//! The suffix array of the text at text_path into sa_path, and with lcp_path its LCP array.
int floor_file(const char* text_path, const char* sa_path, const char* lcp_path, unsigned width) {
    std::vector<std::uint8_t> t;
    if (!read_text(text_path, t)) return 1;
    std::vector<saidx64_t> sa(t.size());
    auto t0 = std::chrono::steady_clock::now();
    if (!t.empty() && divsufsort64(t.data(), sa.data(), saidx64_t(t.size())) != 0) return 1;
    const double sort_seconds = seconds_since(t0);
    if (!write_entries(sa_path, sa.size(), width, [&](std::size_t k) { return sa[k]; })) return 1;
    if (!lcp_path) {
        std::printf("%.3f\n", sort_seconds);
        return 0;
    }
    auto lcp_out = [&](const auto& plcp) {
        return write_entries(lcp_path, sa.size(), width,
                             [&](std::size_t k) { return plcp[std::size_t(sa[k])]; });
    };
    t0 = std::chrono::steady_clock::now();
    bool written;
    double lcp_seconds;
    if (t.size() < (std::uint64_t(1) << 32)) {
        const auto plcp = permuted_lcp<std::uint32_t>(t, sa);
        lcp_seconds = seconds_since(t0);
        written = lcp_out(plcp);
    } else {
        const auto plcp = permuted_lcp<std::uint64_t>(t, sa);
        lcp_seconds = seconds_since(t0);
        written = lcp_out(plcp);
    }
    if (!written) return 1;
    std::printf("%.3f %.3f\n", sort_seconds, lcp_seconds);
    return 0;
}

int random_file(std::uint64_t n, unsigned sigma, std::uint64_t seed, const char* out_path) {
    std::mt19937_64 rng(seed);
    std::ofstream out(out_path, std::ios::binary);
    std::vector<std::uint8_t> buf(std::size_t(1) << 20);
    while (n > 0) {
        std::size_t k = std::size_t(std::min<std::uint64_t>(n, buf.size()));
        for (std::size_t i = 0; i < k; ++i)
            buf[i] = std::uint8_t(sigma == 256 ? rng() : std::uint64_t('A') + rng() % sigma);
        out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(k));
        n -= k;
    }
    return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "divsufsort" && argc == 5)
        return floor_file(argv[2], argv[3], nullptr, unsigned(std::atoi(argv[4])));
    if (cmd == "kasai" && argc == 6)
        return floor_file(argv[2], argv[3], argv[4], unsigned(std::atoi(argv[5])));
    if (cmd == "random" && argc == 6)
        return random_file(std::strtoull(argv[2], nullptr, 10), unsigned(std::atoi(argv[3])),
                           std::strtoull(argv[4], nullptr, 10), argv[5]);
    std::cerr << "usage: sa_floor divsufsort TEXT OUT WIDTH | sa_floor kasai TEXT SA LCP WIDTH | "
                 "sa_floor random N SIGMA SEED OUT\n";
    return 2;
}
