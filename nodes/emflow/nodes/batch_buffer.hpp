// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/batch_buffer.hpp: a refillable array with a read position, behind the sorter's
// output batches (other nodes get theirs from buffered_pull, pull_base.hpp).
#pragma once

#include <cstddef>
#include <vector>

namespace emflow {

//! A refillable batch of elements, read front to back.
template <class T>
class batch_buffer {
public:
    //! Allocates room for cap elements (at start(), never in a constructor).
    void allocate(std::size_t cap) { data_.resize(cap > 0 ? cap : 1); }
    //! True when every element was consumed.
    bool exhausted() const { return pos_ == len_; }
    //! Unconsumed elements.
    std::size_t length() const { return len_ - pos_; }
    //! First unconsumed element.
    const T* begin() const { return data_.data() + pos_; }
    //! Consumes n elements.
    void advance(std::size_t n) { pos_ += n; }
    //! Storage to refill; call filled() afterwards.
    T* fill_area() { return data_.data(); }
    //! Capacity in elements.
    std::size_t capacity() const { return data_.size(); }
    //! Takes v as the storage and the whole of it as the batch.
    void adopt(std::vector<T>&& v) {
        data_ = std::move(v);
        pos_ = 0;
        len_ = data_.size();
    }
    //! Frees the storage (allocate() again before the next refill).
    void release() {
        std::vector<T>().swap(data_);
        pos_ = len_ = 0;
    }
    //! Declares the first n elements of fill_area() as the new batch.
    void filled(std::size_t n) {
        pos_ = 0;
        len_ = n;
    }

private:
    std::vector<T> data_;
    std::size_t pos_ = 0, len_ = 0;
};

}  // namespace emflow
