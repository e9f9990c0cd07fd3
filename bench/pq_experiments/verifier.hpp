// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/verifier.hpp: checks every popped sequence on the fly (order, count,
// checksum, payload) against what was pushed; a mismatch throws verification_error.
#pragma once

#include "items.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pq_bench {

//! A popped sequence that is not what was pushed, in the wrong order, or corrupted.
class verification_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

//! Order-independent fingerprint of a multiset of keys.
struct key_checksum {
    std::uint64_t count = 0;  //!< number of keys
    std::uint64_t sum = 0;    //!< sum of mixed keys (mod 2^64)
    std::uint64_t xors = 0;   //!< xor of differently mixed keys

    //! Adds one key.
    void add(std::uint64_t key) {
        ++count;
        sum += mix64(key);
        xors ^= mix64(key ^ 0x5851F42D4C957F2Dull);
    }
    //! Adds another fingerprint (e.g. of another thread's keys).
    void merge(const key_checksum& o) {
        count += o.count;
        sum += o.sum;
        xors ^= o.xors;
    }
    bool operator==(const key_checksum& o) const {
        return count == o.count && sum == o.sum && xors == o.xors;
    }
};

//! Consumes popped items in pop order and checks them.
class pop_verifier {
public:
    //! Checks one popped item: not smaller than its predecessor, payload intact.
    template <class T>
    void accept(const T& item) {
        if (item.key < last_key_)
            throw verification_error("pop order violated at pop #" + std::to_string(popped_.count) +
                                     ": key " + std::to_string(item.key) + " after " +
                                     std::to_string(last_key_));
        if (!payload_intact(item))
            throw verification_error("corrupted payload at pop #" + std::to_string(popped_.count) +
                                     " (key " + std::to_string(item.key) + ")");
        last_key_ = item.key;
        popped_.add(item.key);
    }

    //! Checks that exactly the expected multiset of keys was popped.
    void finish(const key_checksum& expected) const {
        if (popped_.count != expected.count)
            throw verification_error("popped " + std::to_string(popped_.count) +
                                     " items, expected " + std::to_string(expected.count));
        if (!(popped_ == expected))
            throw verification_error("checksum mismatch: the popped keys are not the pushed ones");
    }

    //! Number of items popped so far.
    std::uint64_t count() const { return popped_.count; }

private:
    std::uint64_t last_key_ = 0;
    key_checksum popped_;
};

}  // namespace pq_bench
