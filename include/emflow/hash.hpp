// SPDX-License-Identifier: BSL-1.0
// emflow/hash.hpp: splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
// generators", OOPSLA 2014), the one 64-bit mixer of the library, its tests and benchmarks:
// deterministic keys, payloads and checksums from counters and seeds.
#pragma once

#include <cstdint>

namespace emflow {

//! splitmix64's finalizer: a bijection of 64-bit words whose output bits each depend on every
//! input bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

//! splitmix64's output for the state x: x advanced by the golden-ratio increment, mixed. Applied
//! to its own result it gives the generator's next output.
constexpr std::uint64_t splitmix64(std::uint64_t x) { return mix64(x + 0x9E3779B97F4A7C15ull); }

}  // namespace emflow
