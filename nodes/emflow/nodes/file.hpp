// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/file.hpp: flat files of trivially copyable elements as a source and a sink, read
// and written with STXXL's asynchronous I/O (two buffers: one is in flight while the graph works
// on the other). The sink writes a file that has no name (Linux O_TMPFILE in the target's
// directory) and links it into place only on commit(), so a failed, interrupted or SIGKILLed
// run leaves nothing behind (a file it replaces is swapped atomically: linked under a hidden
// name, renamed over it at once). Where the file system refuses O_TMPFILE it writes under a
// hidden temporary name next to the target instead, renamed on commit(): that name stays after
// a SIGKILL. The file gets the mode of the one it replaces, or a new file's (0666 less umask).
//
// A forgotten commit() is loud: a sink whose output is complete (push_stop() ran) and that is
// destroyed neither committed nor discard()ed says so on stderr. A report, not an exception or
// std::terminate: the destructor may run while another exception unwinds the stack, and a
// failed run is reported by its exception already (no report then: an incomplete output, or a
// destruction during unwinding, is removed quietly). materialize() refuses a temporary
// file_sink at compile time (nodes/materialize.hpp): nothing could commit it.
//
//   auto text = file_source<std::uint8_t>("genome.txt");              // bytes of a file
//   auto tail = file_source<std::uint32_t>("genome.sa", 1000);        // from element 1000 on
//   file_sink<std::uint32_t> out("genome.sa");
//   out.open();                          // optional: fail early if the directory is unwritable
//   materialize(text | transform(f), out);
//   out.commit();                        // rename into place; without it the file is removed
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/detail/unnamed_file.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <stxxl/bits/io/syscall_file.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

namespace emflow {

namespace detail {

//! STXXL's I/O layer wants buffers, offsets and sizes aligned to this (it complains otherwise).
inline constexpr std::size_t io_alignment = 4096;

//! Elements per buffer of a file node: about 1 MiB, a multiple of io_alignment bytes.
template <class T>
constexpr std::size_t file_chunk_elems() {
    return io_alignment *
           std::max<std::size_t>(1, (std::size_t(1) << 20) / io_alignment / sizeof(T));
}

//! The two buffers of a file node.
template <class T>
memory_demand file_buffers_demand() {
    return memory_demand::fixed(2 * file_chunk_elems<T>() * sizeof(T));
}

//! An io_alignment-aligned array of n elements of T.
template <class T>
class aligned_array {
public:
    //! Allocates n elements (uninitialized: T is trivially copyable).
    void allocate(std::size_t n) {
        data_.reset(static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(io_alignment))));
        size_ = n;
    }
    //! The elements.
    T* data() const { return data_.get(); }
    //! Their number.
    std::size_t size() const { return size_; }

private:
    struct deleter {
        void operator()(T* p) const { ::operator delete(p, std::align_val_t(io_alignment)); }
    };
    std::unique_ptr<T, deleter> data_;
    std::size_t size_ = 0;
};

}  // namespace detail

//! Size in bytes of the file at path; throws std::system_error naming the path if it cannot be
//! opened for reading or is not a regular file.
inline std::uint64_t readable_file_size(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw detail::file_error("open", path, errno);
    struct stat st {};
    int rc = ::fstat(fd, &st);
    int err = errno;
    ::close(fd);
    if (rc != 0) throw detail::file_error("stat", path, err);
    if (!S_ISREG(st.st_mode)) throw detail::file_error("read", path, EISDIR);
    return std::uint64_t(st.st_size);
}

//! Pull node over a file holding an array of T (its size must be a multiple of sizeof(T)).
template <class T>
class file_source : public pull_base<file_source<T>, T> {
    static_assert(std::is_trivially_copyable_v<T>, "file_source reads raw elements");
    friend class pull_base<file_source, T>;

public:
    //! Reads path (opened at start()) from its element first on.
    explicit file_source(std::string path, std::uint64_t first = 0)
        : path_(std::move(path)), first_(first) {}
    //! Moves a source that has not started.
    file_source(file_source&& o) noexcept
        : pull_base<file_source, T>(), path_(std::move(o.path_)), first_(o.first_),
          tail_fd_(std::exchange(o.tail_fd_, -1)) {}
    file_source& operator=(file_source&&) = delete;
    ~file_source() {
        wait_all();
        if (tail_fd_ >= 0) ::close(tail_fd_);
    }

    //! Opens the file, declares both buffers and starts reading them.
    void start(run_context& ctx) {
        ctx.memory().declare_run_long("file reader", detail::file_buffers_demand<T>());
        size_ = readable_file_size(path_);
        if (size_ % sizeof(T) != 0)
            throw std::runtime_error("emflow: '" + path_ + "' holds " + std::to_string(size_) +
                                     " bytes, not a multiple of the element size " +
                                     std::to_string(sizeof(T)));
        if (first_ > size_ / sizeof(T))
            throw std::runtime_error(
                "emflow: '" + path_ + "' holds " + std::to_string(size_ / sizeof(T)) +
                " elements, reading from element " + std::to_string(first_) + " on is impossible");
        offset_ = first_ * sizeof(T);
        file_ = std::make_unique<stxxl::syscall_file>(path_,
                                                      stxxl::file::RDONLY | stxxl::file::NO_LOCK);
        tail_fd_ = ::open(path_.c_str(), O_RDONLY);
        if (tail_fd_ < 0) throw detail::file_error("open", path_, errno);
        for (slot& s : slots_) {
            s.data.allocate(detail::file_chunk_elems<T>());
            issue(s);
        }
        next_ = first_;
    }

    //! Advances by n elements (fewer at the end of the file). A target within the chunks already
    //! read or in flight is reached by passing them; one beyond them by reading on from it, so
    //! that a long jump reads nothing it passes. Returns the elements passed.
    std::uint64_t skip(std::uint64_t n) {
        const std::uint64_t here = next_ - this->held();
        const std::uint64_t target = std::min(here + n, size_ / sizeof(T));
        if (!file_ || target * sizeof(T) < offset_) return detail::pass_batches(*this, n);
        wait_all();  // the reads in flight are passed over
        offset_ = target * sizeof(T);
        for (slot& s : slots_) issue(s);
        exposed_ = false;
        next_ = target;
        this->drop_batch();
        return target - here;
    }

private:
    struct slot {
        detail::aligned_array<T> data;
        stxxl::request_ptr req;
        std::size_t elems = 0;  // of the read in flight (or done)
        std::uint64_t end = 0;  // the element after them
    };

    //! Reads the next chunk into s: asynchronously if whole (aligned), else (the file's tail,
    //! or the head up to the first chunk boundary when reading from an element on) at once
    //! with pread. Chunk boundaries are element boundaries, so a head holds whole elements.
    void issue(slot& s) {
        const std::uint64_t chunk = s.data.size() * sizeof(T);
        std::uint64_t bytes = std::min({chunk - offset_ % chunk, size_ - offset_});
        s.elems = bytes / sizeof(T);
        s.end = (offset_ + bytes) / sizeof(T);
        s.req = stxxl::request_ptr();
        if (bytes == chunk) {
            s.req = file_->aread(s.data.data(), offset_, bytes);
        } else if (bytes > 0) {
            auto* p = reinterpret_cast<char*>(s.data.data());
            for (std::uint64_t done = 0; done < bytes;) {
                ssize_t rc = ::pread(tail_fd_, p + done, bytes - done, off_t(offset_ + done));
                if (rc <= 0) throw detail::file_error("read", path_, rc == 0 ? EIO : errno);
                done += std::uint64_t(rc);
            }
        }
        offset_ += bytes;
    }

    //! Exposes the next slot's data; the slot just consumed reads the chunk after it.
    std::pair<const T*, const T*> next_batch() {
        if (!file_) return {nullptr, nullptr};
        if (exposed_) issue(slots_[cur_]);
        std::size_t next = exposed_ ? 1 - cur_ : 0;
        slot& s = slots_[next];
        if (s.req) s.req->wait();
        s.req = stxxl::request_ptr();
        cur_ = next;
        exposed_ = true;
        next_ = s.end;
        return {s.data.data(), s.data.data() + s.elems};
    }

    //! Waits for reads in flight (their buffers must outlive them); errors are moot by then.
    void wait_all() noexcept {
        for (slot& s : slots_) {
            try {
                if (s.req) s.req->wait();
            } catch (...) {
            }
        }
    }

    std::string path_;
    std::uint64_t first_ = 0;  // the first element read
    std::unique_ptr<stxxl::syscall_file> file_;
    int tail_fd_ = -1;  // reads the unaligned tail
    slot slots_[2];
    std::uint64_t size_ = 0, offset_ = 0;
    std::uint64_t next_ = 0;  // the element after the batch exposed (first_ before one is)
    std::size_t cur_ = 0;
    bool exposed_ = false;
};

//! Push node writing an array of T to a file: unnamed (or under a temporary name) until commit().
template <class T>
class file_sink {
    static_assert(std::is_trivially_copyable_v<T>, "file_sink writes raw elements");

public:
    using value_type = T;  //!< element type

    //! Will write path (nothing happens before open() or start()).
    explicit file_sink(std::string path) : out_(std::move(path)) {}
    file_sink(const file_sink&) = delete;
    file_sink& operator=(const file_sink&) = delete;
    //! Removes the temporary file unless committed; a complete output lost so is reported on
    //! stderr (file comment).
    ~file_sink() {
        try {
            wait_all();
        } catch (...) {  // the run already failed or the error was reported by push_stop()
        }
        file_.reset();
        if (stopped_ && !committed_ && !settled_ && std::uncaught_exceptions() <= unwinding_)
            report_lost();
    }

    //! Creates the unnamed (or temporary) file in path's directory (idempotent); throws
    //! std::system_error naming the directory when it cannot be created.
    void open() {
        if (file_) return;
        out_.open();
        file_ = std::make_unique<stxxl::syscall_file>(out_.io_path(),
                                                      stxxl::file::RDWR | stxxl::file::NO_LOCK);
    }
    //! Opens the file if open() was not called, declares and allocates the buffers.
    void start(run_context& ctx) {
        open();
        ctx.memory().declare_run_long("file writer", detail::file_buffers_demand<T>());
        for (slot& s : slots_) s.data.allocate(detail::file_chunk_elems<T>());
    }
    //! Appends x.
    void push(const T& x) { push_batch(&x, 1); }
    //! Appends n elements.
    void push_batch(const T* p, std::size_t n) {
        while (n > 0) {
            slot& s = slots_[cur_];
            std::size_t k = std::min(n, s.data.size() - fill_);
            std::memcpy(static_cast<void*>(s.data.data() + fill_), p, k * sizeof(T));
            fill_ += k;
            p += k;
            n -= k;
            if (fill_ == s.data.size()) flush();
        }
    }
    //! Writes what is buffered and waits for every write.
    void push_stop() {
        wait_all();
        const auto* p = reinterpret_cast<const char*>(slots_[cur_].data.data());
        const std::size_t bytes = fill_ * sizeof(T);  // the unaligned tail: written at once
        for (std::size_t done = 0; done < bytes;) {
            ssize_t rc = ::pwrite(out_.fd(), p + done, bytes - done, off_t(offset_ + done));
            if (rc < 0) throw detail::file_error("write", out_.shown_name(), errno);
            done += std::size_t(rc);
        }
        offset_ += bytes;
        fill_ = 0;
        stopped_ = true;
    }
    //! Renames the complete file to its final name; the data must have been stopped.
    void commit() {
        if (!stopped_) throw std::logic_error("emflow: file_sink::commit() before push_stop()");
        settled_ = true;  // a commit that throws reports itself
        file_.reset();
        out_.commit();
        committed_ = true;
    }
    //! Drops the output on purpose: the destructor removes it without a report.
    void discard() { settled_ = true; }
    //! The temporary file's path: empty before open(), and while the file has no name (where
    //! O_TMPFILE works: nothing to remove after an interruption).
    const std::string& temporary_path() const { return out_.temporary_path(); }
    //! Elements written so far.
    std::uint64_t size() const { return (offset_ / sizeof(T)) + fill_; }

private:
    struct slot {
        detail::aligned_array<T> data;
        stxxl::request_ptr req;
    };

    //! Hands the filling buffer to an asynchronous write; the other one must be free first.
    void flush() {
        slot& s = slots_[cur_];
        if (fill_ > 0) {
            slot& other = slots_[1 - cur_];
            if (other.req) other.req->wait();
            other.req = stxxl::request_ptr();
            s.req = file_->awrite(s.data.data(), offset_, fill_ * sizeof(T));
            offset_ += fill_ * sizeof(T);
            fill_ = 0;
            cur_ = 1 - cur_;
        }
    }

    void wait_all() {
        for (slot& s : slots_) {
            if (s.req) s.req->wait();
            s.req = stxxl::request_ptr();
        }
    }

    //! A complete output destroyed uncommitted: said on stderr (never throws).
    void report_lost() const noexcept {
        try {
            std::cerr << "emflow: file_sink of '" << out_.path()
                      << "' destroyed without commit(): its complete output of " << size()
                      << " elements is lost (call commit() to keep it, discard() to drop it)"
                      << std::endl;
        } catch (...) {
        }
    }

    detail::unnamed_file out_;                   // the descriptor writes the unaligned tail
    std::unique_ptr<stxxl::syscall_file> file_;  // after out_: closed before it
    slot slots_[2];
    std::size_t cur_ = 0, fill_ = 0;
    std::uint64_t offset_ = 0;
    bool stopped_ = false, committed_ = false;
    bool settled_ = false;  // commit() tried or discard() called: no report
    int unwinding_ =
        std::uncaught_exceptions();  // at construction: more at destruction = unwinding
};

}  // namespace emflow
