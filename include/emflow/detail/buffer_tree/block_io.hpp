// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/block_io.hpp: a buffer tree's blocks on STXXL's block manager
// (typed blocks striped over the disks), a reader that prefetches a list of blocks with
// asynchronous reads and a writer that keeps several asynchronous writes in flight.
#pragma once

#include <stxxl/bits/io/request.h>
#include <stxxl/bits/mng/block_alloc.h>
#include <stxxl/bits/mng/block_manager.h>
#include <stxxl/bits/mng/typed_block.h>

#include <emflow/algorithm/block_io.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace emflow::detail::buffer_tree {

//! One block of items on disk and how many of its slots hold items.
template <std::size_t RawBytes>
struct stored_block {
    stxxl::BID<RawBytes> bid;
    std::uint32_t count = 0;
    bool run_start = false;  //!< in a buffer: the first block of one sorted push
};

//! Returns the block to the block manager.
template <std::size_t RawBytes>
void free_block(const stored_block<RawBytes>& b) {
    std::lock_guard<std::mutex> lock(algorithm::block_manager_mutex());
    stxxl::block_manager::get_instance()->delete_block(b.bid);
}

//! Returns every block of list to the block manager and empties it.
template <std::size_t RawBytes>
void free_blocks(std::vector<stored_block<RawBytes>>& list) {
    for (const auto& b : list) free_block(b);
    list.clear();
}

//! I/O counters: blocks read and written, and block pushes (the paper's Figure 4).
struct io_counts {
    std::uint64_t blocks_read = 0;     //!< block reads
    std::uint64_t blocks_written = 0;  //!< block writes
    std::uint64_t block_pushes = 0;    //!< parts of a buffer pushed to one child
    // where the blocks go (bench/buffer_tree/README.md's breakdown)
    std::uint64_t pushed_internal = 0;   //!< blocks written to internal nodes' buffers
    std::uint64_t pushed_leaf_node = 0;  //!< blocks written to leaf nodes' buffers
    std::uint64_t pushed_items = 0;      //!< requests in those blocks
    std::uint64_t buffer_read = 0;       //!< buffer blocks read (emptying)
    std::uint64_t leaf_written = 0;      //!< leaf blocks written
    std::uint64_t leaf_read = 0;         //!< leaf blocks read while merging into them
    std::uint64_t consolidated = 0;      //!< tree sort: leaf blocks read to sort a leaf node
    std::uint64_t sorted_at_flush = 0;   //!< tree sort: leaf nodes sorted for the reading
};

//! Waits for r, ignoring errors (cleanup paths).
inline void wait_quietly(stxxl::request_ptr& r) noexcept {
    try {
        if (r.valid()) r->wait(false);
    } catch (...) {
    }
}

//! Reads a list of blocks in order with up to lookahead reads in flight; frees each block's
//! disk space once read if asked to.
template <class T, std::size_t RawBytes>
class block_reader {
public:
    using block_type = stxxl::typed_block<RawBytes, T>;  //!< the block in memory

    //! Reads list (which must outlive the reader); free_after: give the blocks back once read.
    block_reader(const std::vector<stored_block<RawBytes>>& list, std::size_t lookahead,
                 bool free_after, io_counts& io)
        : list_(list), free_after_(free_after), io_(io) {
        const std::size_t k = std::max<std::size_t>(1, std::min(lookahead, list.size()));
        for (std::size_t i = 0; i < k; ++i) spare_.push_back(std::make_unique<block_type>());
        issue();
    }
    ~block_reader() {
        for (auto& f : flight_) wait_quietly(f.req);
        if (free_after_)
            for (std::size_t i = next_; i < list_.size(); ++i) free_block(list_[i]);
    }
    block_reader(const block_reader&) = delete;
    block_reader& operator=(const block_reader&) = delete;

    //! The next block's items and count (false at the end). They stay valid until the next call.
    bool next(const T*& items, std::size_t& count) {
        if (current_) spare_.push_back(std::move(current_));
        issue();
        if (flight_.empty()) return false;
        in_flight& f = flight_.front();
        f.req->wait();
        current_ = std::move(f.block);
        count = f.count;
        flight_.pop_front();
        items = current_->begin();
        ++io_.blocks_read;
        issue();
        return true;
    }

private:
    struct in_flight {
        std::unique_ptr<block_type> block;
        stxxl::request_ptr req;
        std::size_t count;
    };

    void issue() {
        while (!spare_.empty() && issued_ < list_.size()) {
            const stored_block<RawBytes>& b = list_[issued_++];
            in_flight f{std::move(spare_.back()), {}, b.count};
            spare_.pop_back();
            f.req = f.block->read(b.bid);
            flight_.push_back(std::move(f));
        }
        // a block is given back once its read has completed (next() waited for it)
        while (free_after_ && next_ < issued_ - flight_.size()) free_block(list_[next_++]);
    }

    const std::vector<stored_block<RawBytes>>& list_;
    bool free_after_;
    io_counts& io_;
    std::vector<std::unique_ptr<block_type>> spare_;
    std::deque<in_flight> flight_;
    std::unique_ptr<block_type> current_;
    std::size_t issued_ = 0, next_ = 0;
};

//! Writes blocks of up to block_type::size items with up to depth writes in flight.
template <class T, std::size_t RawBytes>
class block_writer {
public:
    using block_type = stxxl::typed_block<RawBytes, T>;        //!< the block in memory
    static constexpr std::size_t capacity = block_type::size;  //!< items per block

    //! A writer with depth block buffers.
    block_writer(std::size_t depth, io_counts& io)
        : depth_(std::max<std::size_t>(1, depth)), io_(io) {}
    ~block_writer() { drain(); }
    block_writer(const block_writer&) = delete;
    block_writer& operator=(const block_writer&) = delete;

    //! Writes the n <= capacity items at p to a new block and returns it.
    stored_block<RawBytes> write(const T* p, std::size_t n) {
        return write_as(p, n, [](const T& x) { return x; });
    }
    //! Writes f(p[i]) for the n <= capacity items at p to a new block and returns it.
    template <class U, class F>
    stored_block<RawBytes> write_as(const U* p, std::size_t n, F f) {
        std::unique_ptr<block_type> buf = take_buffer();
        std::transform(p, p + n, buf->begin(), f);
        stored_block<RawBytes> b;
        b.count = std::uint32_t(n);
        {
            std::lock_guard<std::mutex> lock(algorithm::block_manager_mutex());
            stxxl::block_manager::get_instance()->new_block(stxxl::striping(), b.bid, offset_++);
        }
        stxxl::request_ptr req;
        try {
            req = buf->write(b.bid);
        } catch (...) {
            spare_.push_back(std::move(buf));
            free_block(b);
            throw;
        }
        flight_.push_back({std::move(buf), req});
        ++io_.blocks_written;
        return b;
    }
    //! Waits for every write, ignoring errors (cleanup paths).
    void drain() noexcept {
        for (auto& f : flight_) wait_quietly(f.req);
        flight_.clear();
    }
    //! Waits until every write has completed (before any of the blocks is read).
    void finish() {
        while (!flight_.empty()) retire();
    }

private:
    struct in_flight {
        std::unique_ptr<block_type> block;
        stxxl::request_ptr req;
    };

    std::unique_ptr<block_type> take_buffer() {
        if (spare_.empty() && flight_.size() >= depth_) retire();
        if (spare_.empty()) return std::make_unique<block_type>();
        auto p = std::move(spare_.back());
        spare_.pop_back();
        return p;
    }

    //! Waits for the oldest write; its buffer is spare even if the write failed.
    void retire() {
        in_flight f = std::move(flight_.front());
        flight_.pop_front();
        spare_.push_back(std::move(f.block));
        f.req->wait();
    }

    std::size_t depth_;
    io_counts& io_;
    std::vector<std::unique_ptr<block_type>> spare_;
    std::deque<in_flight> flight_;
    std::uint64_t offset_ = 0;
};

}  // namespace emflow::detail::buffer_tree
