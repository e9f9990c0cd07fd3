// SPDX-License-Identifier: BSL-1.0
// emflow/uint40.hpp: a packed unsigned 40-bit integer: 5 bytes, alignment 1, little-endian in
// memory, so that an array of them is the on-disk format of suffix arrays with 5-byte indices
// (up to 1 TiB of text) and tuples of them stay small in sorters and external vectors.
//
//   emflow::uint40 x = 1ull << 39;  std::uint64_t y = x;  ++x;
#pragma once

#include <cstdint>
#include <limits>

namespace emflow {

//! Unsigned integer of 40 bits; converts implicitly from and to std::uint64_t (values are
//! truncated to 40 bits on the way in).
class uint40 {
public:
    constexpr uint40() = default;
    //! The low 40 bits of v.
    constexpr uint40(std::uint64_t v)  // NOLINT: implicit, an integer type
        : b_{std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24),
             std::uint8_t(v >> 32)} {}
    //! The value.
    constexpr operator std::uint64_t() const {  // NOLINT: implicit, an integer type
        return std::uint64_t(b_[0]) | std::uint64_t(b_[1]) << 8 | std::uint64_t(b_[2]) << 16 |
               std::uint64_t(b_[3]) << 24 | std::uint64_t(b_[4]) << 32;
    }
    //! Adds one.
    constexpr uint40& operator++() { return *this = std::uint64_t(*this) + 1; }
    //! Adds d.
    constexpr uint40& operator+=(std::uint64_t d) { return *this = std::uint64_t(*this) + d; }

private:
    std::uint8_t b_[5] = {0, 0, 0, 0, 0};
};

static_assert(sizeof(uint40) == 5 && alignof(uint40) == 1);

}  // namespace emflow

//! numeric_limits for uint40, so that code generic over index types (uint32_t, uint40,
//! uint64_t) finds its range the usual way. (Left out of the API reference: Doxygen cannot
//! place a specialization in std.) \cond
template <>
class std::numeric_limits<emflow::uint40> {
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = false;
    static constexpr bool is_integer = true;
    static constexpr int digits = 40;
    static constexpr emflow::uint40 min() noexcept { return emflow::uint40(0); }
    static constexpr emflow::uint40 lowest() noexcept { return emflow::uint40(0); }
    static constexpr emflow::uint40 max() noexcept { return emflow::uint40((1ull << 40) - 1); }
};
//! \endcond
