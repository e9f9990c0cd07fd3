// SPDX-License-Identifier: BSL-1.0
// emflow/vector_appender.hpp: writes an stxxl::vector front to back, a block at a time with the
// next block's write overlapped, as STXXL's vector_bufwriter does. Unlike that writer, a failed
// write (a full disk) surfaces as an exception from operator<< or finish() and never from a
// destructor: STXXL 1.4.1's writer waits for its writes inside noexcept destructors, so a write
// error there (in its finish(), or while unwinding from another error) ends the process.
//
//   emflow::vector_appender<V> w(v);  // v is cleared
//   w << x << y;
//   w.finish();                       // v holds x, y
#pragma once

#include <stxxl/bits/containers/vector.h>
#include <stxxl/bits/io/request.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace emflow {

//! Appends to an stxxl::vector (cleared on construction) with overlapped block writes.
template <class Vector>
class vector_appender {
    using block_type = typename Vector::block_type;
    using size_type = typename Vector::size_type;

public:
    using value_type = typename Vector::value_type;  //!< element type

    //! Clears v and writes it from its beginning.
    explicit vector_appender(Vector& v) : v_(&v), blocks_(new block_type[2]) { v.clear(); }
    vector_appender(const vector_appender&) = delete;
    vector_appender& operator=(const vector_appender&) = delete;
    //! Waits for the writes under way, without finishing: the vector's contents are then undefined.
    ~vector_appender() {
        for (stxxl::request_ptr& r : requests_) {
            try {
                if (r.valid()) r->wait();
            } catch (...) {  // the error, if any, was thrown to the writer's user already
            }
        }
    }

    //! Appends x.
    vector_appender& operator<<(const value_type& x) {
        blocks_[current_].elem[fill_] = x;
        if (++fill_ == block_type::size) write_block();
        return *this;
    }

    //! Writes what is left and waits for every write; v then holds exactly what was appended.
    void finish() {
        if (finished_) return;
        const size_type n = size_type(written_) * block_type::size + fill_;
        if (fill_ > 0) write_block();
        for (stxxl::request_ptr& r : requests_) wait(r);
        v_->resize(n);
        finished_ = true;
    }

private:
    //! Hands the current block to the disk and switches to the other one once its write is done.
    void write_block() {
        const size_type first = size_type(written_) * block_type::size;
        v_->resize(first + block_type::size);  // allocates the block: a full disk may throw here
        auto at = v_->begin() + first;
        requests_[current_] = blocks_[current_].write(*at.bid());
        at.block_externally_updated();  // the vector reads the block from disk from now on
        ++written_;
        fill_ = 0;
        current_ ^= 1;
        wait(requests_[current_]);
    }
    //! Waits for r (rethrowing its error), then forgets it.
    static void wait(stxxl::request_ptr& r) {
        if (!r.valid()) return;
        r->wait();
        r = stxxl::request_ptr();
    }

    Vector* v_;
    std::unique_ptr<block_type[]> blocks_;  // the one being filled and the one being written
    std::array<stxxl::request_ptr, 2> requests_{};
    unsigned current_ = 0;
    std::size_t fill_ = 0;       // elements in the current block
    std::uint64_t written_ = 0;  // blocks handed to the disk
    bool finished_ = false;
};

}  // namespace emflow
