// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/detail/unnamed_file.hpp: an output file without a name until commit() (Linux
// O_TMPFILE in the target's directory, linked into place by linkat; a file it replaces is
// swapped atomically), so a failed, interrupted or SIGKILLed run leaves nothing behind. Where the
// file system refuses O_TMPFILE it is a hidden temporary name next to the target, renamed on
// commit() (that name stays after a SIGKILL). file_sink writes through one; so do writers that
// need positional writes (the graph files of pipelines/graph).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace emflow::detail {

//! "cannot <what> '<path>': <OS error>" as a std::system_error.
inline std::system_error file_error(const std::string& what, const std::string& path, int err) {
    return std::system_error(err, std::generic_category(), "cannot " + what + " '" + path + "'");
}

//! The permission bits of a file written to target: the target's own if it exists (replacing
//! a file keeps its mode), else those of a newly created file, 0666 less the process's umask
//! (read from /proc: umask() reads it only by setting it, racing other threads' file creation;
//! 0022 assumed where /proc does not tell).
inline mode_t output_mode(const std::string& target) {
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
    mode_t mask = 022;
    if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        unsigned m = 0;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "Umask: %o", &m) == 1) {
                mask = mode_t(m);
                break;
            }
        std::fclose(f);
    }
    return 0666 & ~mask;
}

//! The file that becomes path on commit(); removed at destruction unless committed.
class unnamed_file {
public:
    //! Will create the file for path (nothing happens before open()).
    explicit unnamed_file(std::string path) : path_(std::move(path)) {}
    unnamed_file(const unnamed_file&) = delete;
    unnamed_file& operator=(const unnamed_file&) = delete;
    //! Closes the file; removes the temporary name unless committed.
    ~unnamed_file() {
        if (fd_ >= 0) ::close(fd_);
        if (!tmp_.empty() && !committed_) ::unlink(tmp_.c_str());
    }

    //! Creates the file in path's directory (idempotent); throws std::system_error naming the
    //! directory when it cannot be created.
    void open() {
        if (fd_ >= 0) return;
        const std::string dir = directory();
#ifdef O_TMPFILE
        int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
        int fd = -1;
        errno = EOPNOTSUPP;
#endif
        if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
            throw file_error("create a file in", dir, errno);
        if (fd < 0) {  // no O_TMPFILE here: a hidden name, left behind by a SIGKILL
            std::string templ = hidden_name();
            fd = ::mkstemp(templ.data());
            if (fd < 0) throw file_error("create a file in", dir, errno);
            tmp_ = templ;
        }
        fd_ = fd;
        // created 0600; the output gets the mode any other program's output would
        if (::fchmod(fd, output_mode(path_)) != 0)
            throw file_error("set the permissions of", shown_name(), errno);
    }
    //! The descriptor (read and write), -1 before open().
    int fd() const { return fd_; }
    //! A path that opens the file now: /proc/self/fd/N while it has no name.
    std::string io_path() const {
        return tmp_.empty() ? "/proc/self/fd/" + std::to_string(fd_) : tmp_;
    }
    //! The temporary file's path: empty before open(), and while the file has no name (where
    //! O_TMPFILE works: nothing to remove after an interruption).
    const std::string& temporary_path() const { return tmp_; }
    //! The file as named in error messages.
    std::string shown_name() const { return tmp_.empty() ? "the new " + path_ : tmp_; }
    //! The final path.
    const std::string& path() const { return path_; }
    //! Flushes the file to disk and gives it its final name.
    void commit() {
        if (::fsync(fd_) != 0) throw file_error("write", shown_name(), errno);
        if (tmp_.empty()) {
            link_into_place();
        } else if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
            throw file_error("rename '" + tmp_ + "' to", path_, errno);
        }
        committed_ = true;
    }

private:
    //! The target's directory.
    std::string directory() const {
        const std::filesystem::path target(path_);
        return target.has_parent_path() ? target.parent_path().string() : ".";
    }
    //! A hidden name next to the target, ending in XXXXXX (for mkstemp).
    std::string hidden_name() const {
        const std::filesystem::path target(path_);
        return (std::filesystem::path(directory()) /
                ("." + target.filename().string() + ".emflow-XXXXXX"))
            .string();
    }
    //! Gives the unnamed file the name `to`; returns 0 or the errno. Through /proc (any user
    //! may link a file it opened), else AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH).
    int link_as(const std::string& to) const {
        const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, to.c_str(), AT_SYMLINK_FOLLOW) == 0)
            return 0;
        const int err = errno;
#ifdef AT_EMPTY_PATH
        if (err != ENOENT || ::access("/proc/self/fd", F_OK) == 0) return err;
        return ::linkat(fd_, "", AT_FDCWD, to.c_str(), AT_EMPTY_PATH) == 0 ? 0 : errno;
#else
        return err;
#endif
    }
    //! Links the unnamed file as path_; over an existing file by a link under a hidden name
    //! and a rename (atomic: readers see the old file or the new one).
    void link_into_place() {
        int err = link_as(path_);
        if (err == 0) return;
        if (err != EEXIST) throw file_error("link the new file as", path_, err);
        std::random_device seed;
        std::mt19937_64 rng(seed());
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::string name = hidden_name();
            for (std::size_t i = name.size() - 6; i < name.size(); ++i)
                name[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[rng() % 36];
            err = link_as(name);
            if (err == EEXIST) continue;
            if (err != 0) throw file_error("link the new file in", directory(), err);
            if (::rename(name.c_str(), path_.c_str()) != 0) {
                err = errno;
                ::unlink(name.c_str());
                throw file_error("rename '" + name + "' to", path_, err);
            }
            return;
        }
        throw file_error("link the new file in", directory(), EEXIST);
    }

    std::string path_, tmp_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace emflow::detail
