// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/fingerprint.hpp: Karp-Rabin fingerprints modulo the Mersenne prime 2^61 - 1
// (products reduce without division), with random bases. Two strings of length h that differ get
// the same fingerprint under a random base with probability at most h / 2^61.
#pragma once

#include <cstdint>
#include <random>

namespace emflow::pipelines::sa::fingerprint {

//! The modulus, 2^61 - 1.
inline constexpr std::uint64_t modulus = (std::uint64_t(1) << 61) - 1;

//! 128-bit products (a GCC and Clang extension; __extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 uint128;

//! x modulo the modulus, for x < 2^64 - 2^61 (a sum of a few residues).
inline std::uint64_t reduce(std::uint64_t x) {
    x = (x & modulus) + (x >> 61);
    return x >= modulus ? x - modulus : x;
}

//! a * b modulo the modulus (a, b below it).
inline std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
    const uint128 p = uint128(a) * b;
    const std::uint64_t r = std::uint64_t(p & modulus) + std::uint64_t(p >> 61);
    return r >= modulus ? r - modulus : r;
}

//! b^e modulo the modulus.
inline std::uint64_t pow_mod(std::uint64_t b, std::uint64_t e) {
    std::uint64_t r = 1;
    for (; e > 0; e >>= 1, b = mul_mod(b, b))
        if (e & 1) r = mul_mod(r, b);
    return r;
}

//! A base drawn from entropy (fresh per call: no input can be crafted against it).
inline std::uint64_t random_base(std::random_device& entropy) {
    return std::uniform_int_distribution<std::uint64_t>(257, modulus - 1)(entropy);
}

}  // namespace emflow::pipelines::sa::fingerprint
