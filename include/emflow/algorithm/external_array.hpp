// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/external_array.hpp: one sorted array of items on disk, read block by block.
//
// Block j of the array is in one of four states: external (on disk only), hinted (a prefetch
// read is in flight), loaded (in a RAM buffer) or finished (consumed; its disk space is freed).
// Blocks before `current` are finished; `slots` hold the hinted or loaded blocks
// current, current+1, ... in order; the rest are external. The first item of every block (its
// minimum) stays in RAM: it drives the prefetch prediction and the merge limit.
#pragma once

#include <emflow/algorithm/block_io.hpp>

#include <deque>
#include <vector>

namespace emflow::algorithm {

//! One sorted array of items on disk, read block by block with prefetching.
template <class T>
class external_array {
public:
    //! A hinted or loaded block.
    struct slot {
        void* buffer = nullptr;  //!< the block's RAM buffer
        block_requests reqs;     //!< in-flight read (empty once loaded)
    };

    //! An empty array of blocks of block_bytes holding block_items items each, on the given
    //! level of the queue.
    external_array(std::size_t block_bytes, std::size_t block_items, unsigned level)
        : block_bytes_(block_bytes), block_items_(block_items), level_(level) {}
    external_array(const external_array&) = delete;
    external_array& operator=(const external_array&) = delete;

    //! Frees buffers and disk blocks; waits for in-flight reads first.
    void release(block_pool& pool) noexcept {
        for (auto& s : slots_) {
            wait_transfer_noexcept(s.reqs);
            pool.put(s.buffer);
        }
        slots_.clear();
        for (auto& b : blocks_) {
            try {
                free_block(b, block_bytes_);
            } catch (...) {
            }
        }
        blocks_.clear();
        minima_.clear();
    }

    // ---- building (by external_writer) ----
    //! Appends a written block with its first item.
    void add_block(disk_block b, const T& minimum) {
        blocks_.push_back(std::move(b));
        minima_.push_back(minimum);
    }
    //! Sets the item count once all blocks are added.
    void set_size(std::size_t n) { size_ = remaining_ = n; }

    // ---- reading ----
    //! Number of blocks.
    std::size_t blocks() const { return blocks_.size(); }
    //! Minimum (first item) of block j.
    const T& minimum(std::size_t j) const { return minima_[j]; }
    //! Items in block j.
    std::size_t items_in(std::size_t j) const {
        return j + 1 < blocks_.size() ? block_items_ : size_ - j * block_items_;
    }
    //! The block being merged from.
    std::size_t current() const { return current_; }
    //! One past the last hinted or loaded block.
    std::size_t hint_end() const { return current_ + slots_.size(); }
    //! Items not yet consumed.
    std::size_t remaining() const { return remaining_; }
    //! True when all items are consumed.
    bool empty() const { return remaining_ == 0; }
    //! The level of the array.
    unsigned level() const { return level_; }
    //! The hinted/loaded slots (front = current block).
    std::deque<slot>& slots() { return slots_; }

    //! Issues the read of block hint_end().
    void hint_next(block_pool& pool) {
        slot s;
        s.buffer = pool.get();
        try {
            s.reqs = transfer_block(blocks_[hint_end()], s.buffer, block_bytes_, false);
        } catch (...) {
            pool.put(s.buffer);
            throw;
        }
        slots_.push_back(std::move(s));
    }
    //! Withdraws the hint of the last slot (waits for its read) or drops its loaded block (it is
    //! read again when needed). Not for the current block once loaded.
    void drop_last(block_pool& pool) {
        slot& s = slots_.back();
        // Waits instead of cancelling the read: STXXL 1.4.1's request::cancel() can deadlock.
        // request_queue_impl_qwqr::cancel_request waits for the queue's semaphore while holding
        // the queue's mutex; when the disk thread has just taken the request's semaphore count
        // and waits for that mutex, neither moves (tests/ppq/external_array_test.cpp).
        if (!s.reqs.empty()) wait_transfer(s.reqs);
        pool.put(s.buffer);
        slots_.pop_back();
    }
    //! True if the current block is in RAM (waits for it otherwise, which then counts as a
    //! miss); hints it first if needed. Sets the current range.
    bool load_current(block_pool& pool) {
        if (head_) return true;
        if (slots_.empty()) hint_next(pool);
        slot& s = slots_.front();
        bool hit = true;
        if (!s.reqs.empty()) {
            hit = transfer_done(s.reqs);
            wait_transfer(s.reqs);
        }
        T* items = static_cast<T*>(s.buffer);
        head_ = items;
        tail_ = items + items_in(current_);
        return hit;
    }
    //! True if the current block is loaded.
    bool current_loaded() const { return head_ != nullptr; }
    //! First unconsumed item of the loaded current block.
    T* head() const { return head_; }
    //! End of the loaded current block.
    T* tail() const { return tail_; }
    //! Marks the items before new_head as consumed; finishes the block if it is exhausted
    //! (frees its buffer and disk space). Returns true if the current block changed.
    bool consume_to(T* new_head, block_pool& pool) {
        remaining_ -= std::size_t(new_head - head_);
        head_ = new_head;
        if (head_ != tail_) return false;
        pool.put(slots_.front().buffer);
        slots_.pop_front();
        free_block(blocks_[current_], block_bytes_);
        ++current_;
        head_ = tail_ = nullptr;
        return true;
    }

private:
    std::size_t block_bytes_, block_items_;
    unsigned level_;
    std::vector<disk_block> blocks_;
    std::vector<T> minima_;
    std::size_t size_ = 0, remaining_ = 0;
    std::size_t current_ = 0;
    std::deque<slot> slots_;
    T* head_ = nullptr;
    T* tail_ = nullptr;
};

}  // namespace emflow::algorithm
