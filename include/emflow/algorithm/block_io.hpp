// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/block_io.hpp: external blocks of the PPQ on STXXL's block manager, their
// asynchronous reads and writes, and a pool of aligned block buffers.
//
// STXXL's block manager allocates blocks of a compile-time size; the PPQ's block size is a
// run-time setting. So a PPQ block is a run of 4 KiB units allocated in one call on one disk,
// which the allocator places contiguously whenever it can: then the block is one request. Only
// a fragmented disk gives a scattered block, read and written unit run by unit run.
#pragma once

#include <stxxl/bits/io/request.h>
#include <stxxl/bits/mng/block_alloc.h>
#include <stxxl/bits/mng/block_manager.h>
#include <stxxl/bits/mng/config.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace emflow::algorithm {

//! The allocation unit on disk (also the alignment of buffers for direct I/O).
constexpr unsigned disk_unit = 4096;
//! STXXL's id of one allocation unit on disk.
using unit_bid = stxxl::BID<disk_unit>;

//! One block on disk.
struct disk_block {
    stxxl::file* file = nullptr;      //!< disk of a contiguous block
    std::int64_t offset = 0;          //!< its byte offset
    std::vector<unit_bid> scattered;  //!< the units of a non-contiguous block, else empty
};

//! The in-flight requests of one block transfer (one for a contiguous block).
using block_requests = std::vector<stxxl::request_ptr>;

//! Held around every call of emflow's into STXXL's block manager. Its disks' free lists have
//! locks, its allocation counters (get_current_allocation(), get_maximum_allocation(): the peak
//! disk use emflow-sa reports) do not: two sorters forming runs in parallel raced on them (the
//! TSan suite's nodes_sort).
inline std::mutex& block_manager_mutex() {
    static std::mutex m;
    return m;
}

//! Allocates a block of bytes (a multiple of disk_unit) on disk number disk.
inline disk_block allocate_block(std::size_t bytes, unsigned disk) {
    std::vector<unit_bid> units(bytes / disk_unit);
    {
        std::lock_guard<std::mutex> lock(block_manager_mutex());
        stxxl::block_manager::get_instance()->new_blocks(stxxl::single_disk(disk), units.begin(),
                                                         units.end());
    }
    disk_block b;
    bool contiguous = true;
    for (std::size_t i = 1; i < units.size() && contiguous; ++i)
        contiguous = units[i].storage == units[0].storage &&
                     units[i].offset == units[0].offset + std::int64_t(i * disk_unit);
    if (contiguous) {
        b.file = units[0].storage;
        b.offset = units[0].offset;
    } else {
        b.scattered = std::move(units);
    }
    return b;
}

//! Returns the block's units to the block manager.
inline void free_block(disk_block& b, std::size_t bytes) {
    auto* bm = stxxl::block_manager::get_instance();
    std::lock_guard<std::mutex> lock(block_manager_mutex());
    if (b.scattered.empty()) {
        if (!b.file) return;
        for (std::size_t i = 0; i < bytes / disk_unit; ++i)
            bm->delete_block(unit_bid(b.file, b.offset + std::int64_t(i * disk_unit)));
        b.file = nullptr;
    } else {
        bm->delete_blocks(b.scattered.begin(), b.scattered.end());
        b.scattered.clear();
    }
}

//! Starts reading (write = false) or writing the block from/to buf.
inline block_requests transfer_block(const disk_block& b, void* buf, std::size_t bytes,
                                     bool write) {
    block_requests reqs;
    auto issue = [&](stxxl::file* f, std::int64_t off, char* p, std::size_t n) {
        reqs.push_back(write ? f->awrite(p, off, n) : f->aread(p, off, n));
    };
    if (b.scattered.empty()) {
        issue(b.file, b.offset, static_cast<char*>(buf), bytes);
        return reqs;
    }
    // coalesce runs of consecutive units
    std::size_t i = 0;
    while (i < b.scattered.size()) {
        std::size_t j = i + 1;
        while (j < b.scattered.size() && b.scattered[j].storage == b.scattered[i].storage &&
               b.scattered[j].offset == b.scattered[i].offset + std::int64_t((j - i) * disk_unit))
            ++j;
        issue(b.scattered[i].storage, b.scattered[i].offset,
              static_cast<char*>(buf) + i * disk_unit, (j - i) * disk_unit);
        i = j;
    }
    return reqs;
}

//! True if every request has completed (does not block).
inline bool transfer_done(block_requests& reqs) {
    for (auto& r : reqs)
        if (!r->poll()) return false;
    return true;
}

//! Waits for every request; rethrows the first I/O error after all have finished.
inline void wait_transfer(block_requests& reqs) {
    std::exception_ptr error;
    for (auto& r : reqs) {
        try {
            r->wait(false);
        } catch (...) {
            if (!error) error = std::current_exception();
        }
    }
    reqs.clear();
    if (error) std::rethrow_exception(error);
}

//! Waits for every request, ignoring errors (cleanup paths).
inline void wait_transfer_noexcept(block_requests& reqs) noexcept {
    for (auto& r : reqs) {
        try {
            r->wait(false);
        } catch (...) {
        }
    }
    reqs.clear();
}

//! The number of disks STXXL was configured with.
inline unsigned disk_count() { return unsigned(stxxl::config::get_instance()->disks_number()); }

//! Aligned buffers of one block size, recycled; counts the bytes it holds.
class block_pool {
public:
    //! A pool of buffers of block_bytes each (a multiple of disk_unit).
    explicit block_pool(std::size_t block_bytes = disk_unit) : bytes_(block_bytes) {}
    ~block_pool() { trim(0); }
    block_pool(const block_pool&) = delete;
    block_pool& operator=(const block_pool&) = delete;

    //! A buffer of block_bytes bytes, aligned for direct I/O.
    void* get() {
        if (!free_.empty()) {
            void* p = free_.back();
            free_.pop_back();
            return p;
        }
        void* p = std::aligned_alloc(disk_unit, bytes_);
        if (!p) throw std::bad_alloc();
        peak_ = std::max(peak_, ++held_);
        return p;
    }
    //! Returns a buffer; keeps at most keep spare buffers.
    void put(void* p, std::size_t keep = 1) {
        free_.push_back(p);
        trim(keep);
    }
    //! Frees spare buffers beyond keep.
    void trim(std::size_t keep) {
        while (free_.size() > keep) {
            std::free(free_.back());
            free_.pop_back();
            --held_;
        }
    }
    //! Bytes of all buffers allocated (in use or spare).
    std::size_t held_bytes() const { return held_ * bytes_; }
    //! The most bytes held since the last take_peak_bytes(); restarts the count from now.
    std::size_t take_peak_bytes() {
        std::size_t p = peak_ * bytes_;
        peak_ = held_;
        return p;
    }

private:
    std::size_t bytes_;
    std::vector<void*> free_;
    std::size_t held_ = 0;
    std::size_t peak_ = 0;
};

}  // namespace emflow::algorithm
