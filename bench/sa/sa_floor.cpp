// bench/sa/sa_floor: the in-memory floor and the test texts of bench/run-sa.
//   sa_floor divsufsort TEXT OUT WIDTH   suffix array by libdivsufsort in RAM, written like
//                                        emflow-sa writes it; prints "seconds" (sorting only)
//   sa_floor random N SIGMA SEED OUT     N random bytes over SIGMA symbols
#include <divsufsort64.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

int divsufsort_file(const char* text_path, const char* out_path, unsigned width) {
    std::ifstream in(text_path, std::ios::binary | std::ios::ate);
    if (!in) {
        std::cerr << "sa_floor: cannot read " << text_path << "\n";
        return 1;
    }
    std::vector<std::uint8_t> t(std::size_t(in.tellg()));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(t.data()), std::streamsize(t.size()));
    std::vector<saidx64_t> sa(t.size());
    auto t0 = std::chrono::steady_clock::now();
    if (!t.empty() && divsufsort64(t.data(), sa.data(), saidx64_t(t.size())) != 0) return 1;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<std::uint8_t> bytes(std::size_t(1) << 20);
    std::ofstream out(out_path, std::ios::binary);
    std::size_t fill = 0;
    for (saidx64_t x : sa) {
        for (unsigned b = 0; b < width; ++b)
            bytes[fill++] = std::uint8_t(std::uint64_t(x) >> (8 * b));
        if (fill + width > bytes.size()) {
            out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(fill));
            fill = 0;
        }
    }
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(fill));
    if (!out) return 1;
    std::printf("%.3f\n", s);
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
        return divsufsort_file(argv[2], argv[3], unsigned(std::atoi(argv[4])));
    if (cmd == "random" && argc == 6)
        return random_file(std::strtoull(argv[2], nullptr, 10), unsigned(std::atoi(argv[3])),
                           std::strtoull(argv[4], nullptr, 10), argv[5]);
    std::cerr << "usage: sa_floor divsufsort TEXT OUT WIDTH | sa_floor random N SIGMA SEED OUT\n";
    return 2;
}
