// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/answer_queue.hpp: the answers of look-ups waiting to be pulled: a
// FIFO with its head and tail block in RAM and the blocks between on disk.
#pragma once

#include <emflow/detail/buffer_tree/block_io.hpp>

#include <cstddef>
#include <deque>
#include <vector>

namespace emflow::detail::buffer_tree {

//! FIFO of T in blocks of RawBytes: two blocks of RAM however many answers wait.
template <class T, std::size_t RawBytes>
class answer_queue {
    using writer_type = block_writer<T, RawBytes>;

public:
    static constexpr std::size_t block_items = writer_type::capacity;  //!< items per block

    //! An empty queue counting its I/O in io.
    explicit answer_queue(io_counts& io) : io_(io), writer_(1, io) {}
    ~answer_queue() {
        for (auto& b : disk_) free_block(b);
    }
    answer_queue(const answer_queue&) = delete;
    answer_queue& operator=(const answer_queue&) = delete;

    //! Appends x.
    void push(const T& x) {
        if (tail_.capacity() == 0) tail_.reserve(block_items);
        tail_.push_back(x);
        if (tail_.size() < block_items) return;
        if (head_.size() == pos_ && disk_.empty()) {  // nothing before it: it is the head
            std::swap(head_, tail_);
            pos_ = 0;
        } else {
            disk_.push_back(writer_.write(tail_.data(), tail_.size()));
        }
        tail_.clear();
    }
    //! Answers readily available at begin(): at least one unless the queue is empty.
    std::size_t length() {
        if (pos_ == head_.size()) refill();
        return head_.size() - pos_;
    }
    //! The available answers.
    const T* begin() const { return head_.data() + pos_; }
    //! Removes n <= length() answers.
    void pop(std::size_t n) { pos_ += n; }
    //! Answers waiting.
    std::size_t size() const {
        return head_.size() - pos_ + disk_.size() * block_items + tail_.size();
    }

private:
    void refill() {
        head_.clear();
        pos_ = 0;
        if (disk_.empty()) {
            std::swap(head_, tail_);
            return;
        }
        writer_.finish();
        std::vector<stored_block<RawBytes>> one{disk_.front()};
        disk_.pop_front();
        block_reader<T, RawBytes> r(one, 1, true, io_);
        const T* p = nullptr;
        std::size_t n = 0;
        r.next(p, n);
        head_.assign(p, p + n);
    }

    io_counts& io_;
    writer_type writer_;
    std::vector<T> head_, tail_;
    std::size_t pos_ = 0;
    std::deque<stored_block<RawBytes>> disk_;
};

}  // namespace emflow::detail::buffer_tree
