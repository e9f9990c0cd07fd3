// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/block_cache.hpp: a fixed number of a file's 512-byte blocks kept
// in RAM, set-associative with CLOCK eviction in each set and a spin lock per set, shared by the
// search's threads, so that the edges a slowly moving wavefront re-reads round after round
// (road-like graphs) come from the budget, not the file (small blocks: a road wavefront crosses
// each row's edges at a few vertices only). Readers fill it with the blocks they asked for.
#pragma once

#include <tbb/spin_mutex.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! Blocks of one file, looked up by index (file offset / block_bytes); thread-safe.
class block_cache {
public:
    //! Bytes per block.
    static constexpr std::size_t block_bytes = 512;
    //! The blocks that bytes of budget hold, counting each block's share of its set's tags, bits
    //! and lock; at least one.
    static std::size_t blocks_for(std::uint64_t bytes) {
        return std::size_t(
            std::max<std::uint64_t>(1, bytes / (block_bytes + sizeof(set) / max_ways)));
    }
    //! A cache of about blocks blocks (at least one; a multiple of the set size from 8 on).
    explicit block_cache(std::size_t blocks)
        : ways_(unsigned(std::min<std::size_t>(std::max<std::size_t>(blocks, 1), max_ways))),
          sets_(std::max<std::size_t>(blocks, 1) / ways_), meta_(sets_),
          data_(sets_ * ways_ * block_bytes) {}
    //! Copies the file's bytes [offset, offset + n) into dst if their blocks are all held;
    //! returns false at the first one missing (dst then partly written). Only the bytes asked
    //! for are copied: a block is 8 cache lines, a vertex's offsets or edges often one.
    bool read(std::uint64_t offset, std::size_t n, char* dst) {
        while (n > 0) {
            const std::size_t at = std::size_t(offset % block_bytes),
                              part = std::min(n, block_bytes - at);
            if (!read_one(offset / block_bytes, at, part, dst)) return false;
            offset += part, dst += part, n -= part;
        }
        return true;
    }
    //! Puts blocks [first, first + count) from src (count * block_bytes) in, each in place of
    //! the first unreferenced block its set's clock hand finds; a block held stays as it is.
    void insert(std::uint64_t first, std::size_t count, const char* src) {
        for (std::size_t i = 0; i < count; ++i) insert_one(first + i, src + i * block_bytes);
    }
    //! Blocks it holds at most.
    std::size_t capacity() const { return sets_ * ways_; }

private:
    static constexpr unsigned max_ways = 8;
    static constexpr std::uint64_t empty = std::numeric_limits<std::uint64_t>::max();
    //! One set's tags, referenced bits, clock hand and lock (a spin lock: it is held for a copy
    //! of one block, shorter than a sleep), in two cache lines.
    struct alignas(64) set {
        std::uint64_t tags[max_ways] = {empty, empty, empty, empty, empty, empty, empty, empty};
        std::uint8_t referenced = 0;  // bit w: way w read since the hand passed it
        std::uint8_t hand = 0;
        tbb::spin_mutex lock;
    };
    using set_lock = tbb::spin_mutex::scoped_lock;

    //! The set of block index: a multiplicative hash, so that a section's neighbouring blocks
    //! and the sections' equal offsets spread over the sets.
    std::size_t set_of(std::uint64_t index) const {
        return std::size_t((index * 0x9E3779B97F4A7C15ull) >> 20) % sets_;
    }
    char* block_at(std::size_t s, unsigned w) {
        return data_.data() + (s * ways_ + w) * block_bytes;
    }
    //! Copies bytes [at, at + n) of block index into dst if held.
    bool read_one(std::uint64_t index, std::size_t at, std::size_t n, char* dst) {
        const std::size_t s = set_of(index);
        set& m = meta_[s];
        set_lock lock(m.lock);
        for (unsigned w = 0; w < ways_; ++w)
            if (m.tags[w] == index) {
                m.referenced = std::uint8_t(m.referenced | (1u << w));
                std::memcpy(dst, block_at(s, w) + at, n);
                return true;
            }
        return false;
    }
    void insert_one(std::uint64_t index, const char* src) {
        const std::size_t s = set_of(index);
        set& m = meta_[s];
        set_lock lock(m.lock);
        for (unsigned w = 0; w < ways_; ++w)
            if (m.tags[w] == index) return;  // another thread put it there
        while (m.referenced & (1u << m.hand)) {
            m.referenced = std::uint8_t(m.referenced & ~(1u << m.hand));
            m.hand = std::uint8_t((m.hand + 1) % ways_);
        }
        m.tags[m.hand] = index;  // not referenced: it leaves when the hand returns unless read
        std::memcpy(block_at(s, m.hand), src, block_bytes);
        m.hand = std::uint8_t((m.hand + 1) % ways_);
    }

    unsigned ways_;
    std::size_t sets_;
    std::vector<set> meta_;
    std::vector<char> data_;
};

}  // namespace emflow::pipelines::graph::detail
