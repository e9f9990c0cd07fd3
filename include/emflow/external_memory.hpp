// SPDX-License-Identifier: BSL-1.0
// emflow/external_memory.hpp: configures STXXL's disks programmatically, once per process.
//
// STXXL looks for a ~/.stxxl file and otherwise silently falls back to /var/tmp/stxxl. emflow
// never relies on either: configure_external_memory() (or the first emflow container, through
// ensure_external_memory()) creates a private directory under the temp base, opens the disk
// files there, unlinks them at once (so nothing is left behind, even after a crash) and removes
// the directory. Call it before any STXXL container is created; a plain stxxl::vector made
// before it would make STXXL configure itself from ~/.stxxl. It also fixes glibc's mmap
// threshold (emflow/detail/allocator_tuning.hpp), so that the memory emflow frees leaves the
// process: docs/memory-and-disks.md says how to override it.
//
//   emflow::external_memory_options cfg;      // temp base from EMFLOW_TMPDIR, TMPDIR, /var/tmp
//   cfg.disks = {emflow::disk_spec{}, emflow::disk_spec{}};  // two parallel autogrowing disks
//   emflow::configure_external_memory(cfg);
#pragma once

#include <emflow/detail/allocator_tuning.hpp>
#include <emflow/detail/request_queues.hpp>

#include <stxxl/bits/io/iostats.h>
#include <stxxl/bits/mng/block_manager.h>
#include <stxxl/bits/mng/config.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow {

//! Raised for a bad external-memory configuration; the message names the path and the OS error.
class config_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

//! How STXXL accesses the disk files. syscall serves one request at a time per disk and reports
//! every failure (several disks on one device give several requests at once). linuxaio keeps
//! several requests in the kernel at once, but in STXXL 1.4.1 a failed linuxaio request completes
//! as if it had succeeded: a full disk gives wrong data, not an io_error. mmap writes through
//! page faults, which no file size limit stops. So a fixed-capacity disk takes syscall only, and
//! linuxaio belongs where the disk cannot run full.
enum class io_method {
    syscall,   //!< pread/pwrite by STXXL's I/O thread, one request at a time per disk (default)
    linuxaio,  //!< Linux native AIO, several requests in the kernel; failures go unseen
    mmap       //!< memory-mapped: writes through page faults
};

//! Parses "syscall", "linuxaio" or "mmap"; throws std::invalid_argument for anything else.
inline io_method parse_io_method(const std::string& name) {
    if (name == "syscall") return io_method::syscall;
    if (name == "linuxaio") return io_method::linuxaio;
    if (name == "mmap") return io_method::mmap;
    throw std::invalid_argument("emflow: unknown I/O method '" + name +
                                "' (expected syscall, linuxaio or mmap)");
}

//! The STXXL name of an I/O method.
inline const char* io_method_name(io_method m) {
    switch (m) {
        case io_method::linuxaio:
            return "linuxaio";
        case io_method::mmap:
            return "mmap";
        default:
            return "syscall";
    }
}

//! One disk file. Several disks are used as parallel disks by STXXL's block striping.
struct disk_spec {
    //! 0: the file grows as needed. Otherwise a fixed size: writing past it fails with a clear
    //! stxxl::io_error ("File too large"). STXXL 1.4.1 extends even fixed-size files, so emflow
    //! enforces the size with the process's file size limit (RLIMIT_FSIZE, set to the largest
    //! fixed disk): that limit applies to every file the process writes.
    std::uint64_t capacity_bytes = 0;
};

//! The whole external-memory configuration of a process.
struct external_memory_options {
    //! Base directory for the private temp directory; empty: $EMFLOW_TMPDIR, $TMPDIR, /var/tmp.
    std::string tmp_base;
    //! The disk files, at least one.
    std::vector<disk_spec> disks{disk_spec{}};
    //! How STXXL reads and writes them.
    io_method method = io_method::syscall;
    //! Keep STXXL's log files (stxxl.log, stxxl.errlog) in the temp directory; default: disabled.
    bool keep_logs = false;
};

//! What configure_external_memory() set up.
struct external_memory_state {
    std::filesystem::path dir;  //!< the private directory (removed unless keep_logs)
    std::vector<std::filesystem::path> disk_files;  //!< disk file paths (already unlinked)
};

//! The directory under which emflow makes its private temp directory: configured if not empty
//! (external_memory_options::tmp_base), else $EMFLOW_TMPDIR, else $TMPDIR, else /var/tmp.
inline std::filesystem::path temp_base(const std::string& configured) {
    if (!configured.empty()) return configured;
    for (const char* var : {"EMFLOW_TMPDIR", "TMPDIR"}) {
        const char* v = std::getenv(var);
        if (v && *v) return v;
    }
    return "/var/tmp";
}

//! "emflow: <what> '<path>': <strerror(err)>", the form of every error emflow reports about a
//! file or directory.
inline std::string path_error(const std::string& what, const std::filesystem::path& p, int err) {
    return "emflow: " + what + " '" + p.string() + "': " + std::strerror(err);
}

namespace detail {

inline std::mutex& em_mutex() {
    static std::mutex m;
    return m;
}

inline external_memory_state*& em_state() {
    static external_memory_state* state = nullptr;  // intentionally lives until exit
    return state;
}

//! Creates base/emflow-XXXXXX, with errors naming the path.
inline std::filesystem::path make_private_dir(const std::filesystem::path& base) {
    std::error_code ec;
    if (!std::filesystem::is_directory(base, ec))
        throw config_error(path_error("temp directory is not a directory", base,
                                      std::filesystem::exists(base) ? ENOTDIR : ENOENT));
    if (::access(base.c_str(), W_OK | X_OK) != 0)
        throw config_error(path_error("temp directory is not writable", base, errno));
    std::string templ = (base / "emflow-XXXXXX").string();
    if (!::mkdtemp(templ.data()))
        throw config_error(path_error("cannot create a directory in", base, errno));
    return templ;
}

//! Silences std::cout while STXXL prints its banner and disk messages.
class mute_cout {
public:
    mute_cout() : saved_(std::cout.rdbuf(nullptr)) {}
    ~mute_cout() { std::cout.rdbuf(saved_); }
    mute_cout(const mute_cout&) = delete;
    mute_cout& operator=(const mute_cout&) = delete;

private:
    std::streambuf* saved_;
};

//! The size of a fixed-capacity disk file as STXXL sees it (sparse: it costs no space).
inline constexpr std::uint64_t sparse_disk_bytes = std::uint64_t(1) << 40;

inline void limit_file_size(std::uint64_t bytes) {
    std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
    rlimit rl{};
    ::getrlimit(RLIMIT_FSIZE, &rl);
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > bytes) rl.rlim_cur = bytes;
    if (::setrlimit(RLIMIT_FSIZE, &rl) != 0)
        throw config_error(std::string("emflow: cannot limit the disk file size: ") +
                           std::strerror(errno));
}

}  // namespace detail

//! True once the external memory of this process has been configured.
inline bool external_memory_configured() {
    std::lock_guard<std::mutex> lock(detail::em_mutex());
    return detail::em_state() != nullptr;
}

//! Configures STXXL's disks and glibc's allocator (docs/memory-and-disks.md); once per process
//! (a second call throws std::logic_error).
//! Throws config_error for a missing or unwritable directory or a disk file that cannot be
//! opened, std::invalid_argument for an empty disk list or a fixed-capacity disk with another
//! method than syscall.
inline const external_memory_state& configure_external_memory(
    const external_memory_options& cfg = external_memory_options()) {
    std::lock_guard<std::mutex> lock(detail::em_mutex());
    if (detail::em_state())
        throw std::logic_error("emflow: external memory is already configured in this process");
    if (cfg.disks.empty())
        throw std::invalid_argument("emflow: external_memory_options.disks must not be empty");
    for (const disk_spec& d : cfg.disks)
        if (d.capacity_bytes && cfg.method != io_method::syscall)
            throw std::invalid_argument(
                std::string("emflow: a fixed-capacity disk needs io_method syscall: ") +
                io_method_name(cfg.method) + " does not report the writes past the capacity");

    detail::tune_allocator();
    auto state = std::make_unique<external_memory_state>();
    state->dir = detail::make_private_dir(temp_base(cfg.tmp_base));
    try {
        // STXXL's logger opens its files on first use and reads these variables then.
        const std::string log = cfg.keep_logs ? (state->dir / "stxxl.log").string() : "/dev/null";
        const std::string err =
            cfg.keep_logs ? (state->dir / "stxxl.errlog").string() : "/dev/null";
        ::setenv("STXXLLOGFILE", log.c_str(), 1);
        ::setenv("STXXLERRLOGFILE", err.c_str(), 1);

        std::uint64_t largest_fixed = 0;
        detail::mute_cout mute;
        stxxl::config* stxxl_cfg = stxxl::config::get_instance();
        for (std::size_t i = 0; i < cfg.disks.size(); ++i) {
            const disk_spec& d = cfg.disks[i];
            auto path = state->dir / ("disk-" + std::to_string(i));
            // A fixed disk is made sparse and far larger than its capacity, so that STXXL never
            // extends it: allocation cannot fail, and a write past the capacity fails (the file
            // size limit) where STXXL reports it cleanly, at the write's completion. (A failed
            // extension inside block allocation leaves STXXL's vector with unallocated blocks,
            // which its destructor dereferences.)
            const std::uint64_t size = d.capacity_bytes ? detail::sparse_disk_bytes : 0;
            stxxl::disk_config dc(path.string(), size,
                                  std::string(io_method_name(cfg.method)) + " unlink_on_open");
            dc.autogrow = d.capacity_bytes == 0;
            stxxl_cfg->add_disk(dc);
            state->disk_files.push_back(path);
            largest_fixed = std::max(largest_fixed, d.capacity_bytes);
        }
        stxxl::block_manager::get_instance();  // opens (and unlinks) the disk files now
        detail::make_request_queues(state->dir, io_method_name(cfg.method), cfg.disks.size());
        if (largest_fixed) detail::limit_file_size(largest_fixed);
    } catch (const std::exception& e) {
        std::error_code ec;
        std::filesystem::remove_all(state->dir, ec);
        throw config_error(std::string("emflow: cannot set up disks in '") + state->dir.string() +
                           "': " + e.what());
    }
    if (!cfg.keep_logs) std::filesystem::remove(state->dir);  // empty: the files are unlinked
    detail::em_state() = state.release();
    return *detail::em_state();
}

//! Configures the defaults unless the process already did; emflow containers call this.
inline void ensure_external_memory() {
    if (!external_memory_configured()) {
        try {
            configure_external_memory();
        } catch (const std::logic_error&) {
            // another thread configured it in between: fine
        }
    }
}

//! Bytes read and written by STXXL's I/O layer so far, process-wide.
struct io_volume {
    std::uint64_t bytes_read = 0;     //!< total read
    std::uint64_t bytes_written = 0;  //!< total written
};

//! Current process-wide I/O volume from STXXL's statistics.
inline io_volume current_io_volume() {
    const stxxl::stats* s = stxxl::stats::get_instance();
    return {static_cast<std::uint64_t>(s->get_read_volume()),
            static_cast<std::uint64_t>(s->get_written_volume())};
}

}  // namespace emflow
