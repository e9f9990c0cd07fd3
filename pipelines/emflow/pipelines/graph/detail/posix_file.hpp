// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/posix_file.hpp: a file descriptor with exact positional reads
// and writes whose errors name the file and the offset, and a buffered appending writer.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace emflow::pipelines::graph::detail {

//! An open file; closed at destruction.
class posix_file {
public:
    //! How to open.
    enum mode { read_only, create };
    //! Opens path (create: truncates or creates it); throws std::system_error naming it.
    posix_file(const std::string& path, mode m) : path_(path) {
        fd_ = m == read_only ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC)
                             : ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path);
    }
    //! Takes over the descriptor fd (closed at destruction), named name in errors.
    posix_file(int fd, std::string name) : path_(std::move(name)), fd_(fd) {
        if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path_);
    }
    ~posix_file() {
        if (fd_ >= 0) ::close(fd_);
    }
    posix_file(const posix_file&) = delete;
    posix_file& operator=(const posix_file&) = delete;

    //! The descriptor (owned by this object).
    int fd() const { return fd_; }
    //! The file's size in bytes.
    std::uint64_t size() const {
        struct stat st;
        if (::fstat(fd_, &st) != 0) throw std::system_error(errno, std::generic_category(), path_);
        return std::uint64_t(st.st_size);
    }
    //! Reads exactly n bytes at offset; a short file is a runtime_error naming the offset.
    void read_at(std::uint64_t offset, void* dst, std::size_t n) const {
        char* p = static_cast<char*>(dst);
        while (n > 0) {
            ssize_t r = ::pread(fd_, p, n, off_t(offset));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) throw std::system_error(errno, std::generic_category(), path_);
            if (r == 0)
                throw std::runtime_error(path_ + ": unexpected end of file at offset " +
                                         std::to_string(offset));
            p += r, n -= std::size_t(r), offset += std::uint64_t(r);
        }
    }
    //! Reads up to n bytes at offset; returns the count (0 at the end).
    std::size_t read_some(std::uint64_t offset, void* dst, std::size_t n) const {
        for (;;) {
            ssize_t r = ::pread(fd_, dst, n, off_t(offset));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) throw std::system_error(errno, std::generic_category(), path_);
            return std::size_t(r);
        }
    }
    //! Writes n bytes at offset.
    void write_at(std::uint64_t offset, const void* src, std::size_t n) {
        const char* p = static_cast<const char*>(src);
        while (n > 0) {
            ssize_t r = ::pwrite(fd_, p, n, off_t(offset));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) throw std::system_error(errno, std::generic_category(), path_);
            p += r, n -= std::size_t(r), offset += std::uint64_t(r);
        }
    }
    //! Asks the kernel to read [offset, offset + n) ahead, asynchronously.
    void prefetch(std::uint64_t offset, std::size_t n) const {
        ::posix_fadvise(fd_, off_t(offset), off_t(n), POSIX_FADV_WILLNEED);
    }
    //! The path it was opened with.
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
};

//! Appends bytes to a file from a position on, through a buffer.
class buffered_writer {
public:
    //! Writes into f from offset on.
    buffered_writer(posix_file& f, std::uint64_t offset, std::size_t buffer_bytes = 1 << 20)
        : f_(f), at_(offset) {
        buf_.reserve(buffer_bytes);
    }
    //! Appends n bytes.
    void write(const void* src, std::size_t n) {
        if (buf_.size() + n > buf_.capacity()) flush();
        if (n > buf_.capacity()) {
            f_.write_at(at_, src, n);
            at_ += n;
            return;
        }
        const char* p = static_cast<const char*>(src);
        buf_.insert(buf_.end(), p, p + n);
    }
    //! Appends x's bytes.
    template <class T>
    void put(const T& x) {
        write(&x, sizeof x);
    }
    //! Writes the buffer out.
    void flush() {
        f_.write_at(at_, buf_.data(), buf_.size());
        at_ += buf_.size();
        buf_.clear();
    }
    //! The file offset after everything appended so far.
    std::uint64_t position() const { return at_ + buf_.size(); }

private:
    posix_file& f_;
    std::uint64_t at_;
    std::vector<char> buf_;
};

//! Reads a file (or a section of it) sequentially through a buffer.
class buffered_reader {
public:
    //! Reads f from offset on, until end (exclusive).
    buffered_reader(const posix_file& f, std::uint64_t offset, std::uint64_t end,
                    std::size_t buffer_bytes = 1 << 20)
        : f_(f), at_(offset), end_(end), buf_(buffer_bytes) {}
    //! Reads the next sizeof(T) bytes into x; throws at the end, naming file and offset.
    template <class T>
    void get(T& x) {
        if (pos_ + sizeof x > len_) refill(sizeof x);
        std::memcpy(&x, buf_.data() + pos_, sizeof x);
        pos_ += sizeof x;
    }

private:
    void refill(std::size_t need) {
        std::size_t keep = len_ - pos_;
        std::memmove(buf_.data(), buf_.data() + pos_, keep);
        std::size_t want = std::size_t(std::min<std::uint64_t>(buf_.size() - keep, end_ - at_));
        if (keep + want < need)
            throw std::runtime_error(f_.path() + ": unexpected end of data at offset " +
                                     std::to_string(at_));
        f_.read_at(at_, buf_.data() + keep, want);
        at_ += want;
        pos_ = 0;
        len_ = keep + want;
    }
    const posix_file& f_;
    std::uint64_t at_, end_;
    std::vector<char> buf_;
    std::size_t pos_ = 0, len_ = 0;
};

}  // namespace emflow::pipelines::graph::detail
