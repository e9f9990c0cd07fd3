// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/external_writer.hpp: writes a sorted stream of items into a new external array.
//
// The write buffers are split into two halves: the producer (a parallel multiway merge) fills
// one half while the blocks of the other half are being written asynchronously, so computation
// and I/O overlap. Blocks are spread round-robin over the disks.
#pragma once

#include <emflow/algorithm/block_io.hpp>
#include <emflow/algorithm/external_array.hpp>
#include <emflow/ppq/config.hpp>

#include <cstdlib>
#include <memory>

namespace emflow::algorithm {

//! Writes a sorted stream of items into a new external array, overlapping the producer with
//! the writes.
template <class T>
class external_writer {
public:
    //! Starts a new array on level; next_disk is the round-robin disk counter.
    external_writer(const ppq_layout& cfg, unsigned level, unsigned& next_disk)
        : cfg_(cfg), next_disk_(next_disk), disks_(disk_count()),
          half_items_(cfg.write_blocks / 2 * cfg.block_items),
          array_(std::make_unique<external_array<T>>(cfg.block_bytes, cfg.block_items, level)) {
        for (auto& h : half_) {
            h.buffer = static_cast<T*>(
                std::aligned_alloc(disk_unit, cfg.write_blocks / 2 * cfg.block_bytes));
            if (!h.buffer) {
                free_buffers();
                throw std::bad_alloc();
            }
        }
    }
    ~external_writer() {
        for (auto& h : half_) wait_transfer_noexcept(h.reqs);
        free_buffers();
        if (array_) array_->release(dummy_pool_);
    }
    external_writer(const external_writer&) = delete;
    external_writer& operator=(const external_writer&) = delete;

    //! Free space in the current half: room items from the returned pointer on.
    T* space(std::size_t& room) {
        half& h = half_[cur_];
        room = half_items_ - h.filled;
        return h.buffer + h.filled;
    }
    //! The producer appended n items at space(); writes the half out once it is full.
    void commit(std::size_t n) {
        half_[cur_].filled += n;
        total_ += n;
        if (half_[cur_].filled == half_items_) {
            write_half(half_[cur_]);
            cur_ ^= 1;
            wait_transfer(half_[cur_].reqs);  // its previous blocks must be on disk first
            half_[cur_].filled = 0;
        }
    }
    //! Items written so far.
    std::size_t size() const { return total_; }
    //! Writes the rest, waits for all writes and returns the array.
    std::unique_ptr<external_array<T>> finish() {
        write_half(half_[cur_]);
        for (auto& h : half_) wait_transfer(h.reqs);
        array_->set_size(total_);
        return std::move(array_);
    }
    //! Bytes written to disk.
    std::uint64_t bytes_written() const { return bytes_written_; }

private:
    struct half {
        T* buffer = nullptr;
        std::size_t filled = 0;
        block_requests reqs;
    };

    void write_half(half& h) {
        for (std::size_t off = 0; off < h.filled; off += cfg_.block_items) {
            disk_block b = allocate_block(cfg_.block_bytes, next_disk_++ % disks_);
            try {
                auto reqs = transfer_block(b, h.buffer + off, cfg_.block_bytes, true);
                for (auto& r : reqs) h.reqs.push_back(std::move(r));
            } catch (...) {
                free_block(b, cfg_.block_bytes);
                throw;
            }
            array_->add_block(std::move(b), h.buffer[off]);
            bytes_written_ += cfg_.block_bytes;
        }
    }
    void free_buffers() {
        for (auto& h : half_) {
            std::free(h.buffer);
            h.buffer = nullptr;
        }
    }

    const ppq_layout& cfg_;
    unsigned& next_disk_;
    unsigned disks_;
    std::size_t half_items_;
    half half_[2];
    unsigned cur_ = 0;
    std::size_t total_ = 0;
    std::uint64_t bytes_written_ = 0;
    std::unique_ptr<external_array<T>> array_;
    block_pool dummy_pool_;  // the array under construction holds no read buffers
};

}  // namespace emflow::algorithm
