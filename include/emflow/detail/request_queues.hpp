// SPDX-License-Identifier: BSL-1.0
// emflow/detail/request_queues.hpp: makes STXXL's I/O singletons and per-disk request queues
// while configure_external_memory() holds its lock, before any thread issues a request.
//
// STXXL 1.4.1 makes them on the first request instead: its singletons (stats, disk_queues) behind
// an unsynchronized double-checked pointer, and a disk's queue by an unlocked std::map insert in
// disk_queues::add_request, so two threads whose first requests coincide race there. A
// zero-byte write to a probe file of emflow's own on each queue makes them without allocating a
// block or counting a byte, so the block manager's peak allocation and the I/O volume stay 0.
#pragma once

#include <stxxl/bits/io/create_file.h>
#include <stxxl/bits/io/file.h>
#include <stxxl/bits/io/request.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace emflow::detail {

//! The file type whose requests land in the queue that disks of I/O method `method` use: the
//! queue type follows the request type, and only linuxaio has a queue type of its own.
inline const char* probe_file_type(const std::string& method) {
    return method == "linuxaio" ? "linuxaio" : "syscall";
}

//! Makes the request queues of `disk_count` disks of I/O method `method`: STXXL numbers a disk's
//! queue by its index (linuxaio disks share one), as does create_file's device id here.
inline void make_request_queues(const std::filesystem::path& dir, const std::string& method,
                                std::size_t disk_count) {
    const std::string probe = (dir / "queue-probe").string();
    for (std::size_t i = 0; i < disk_count; ++i) {
        std::unique_ptr<stxxl::file> f(stxxl::create_file(probe_file_type(method), probe,
                                                          stxxl::file::CREAT | stxxl::file::RDWR,
                                                          static_cast<int>(i)));
        // aligned as STXXL checks every request's buffer (else it logs an error to stderr)
        alignas(STXXL_BLOCK_ALIGN) char none[STXXL_BLOCK_ALIGN] = {};
        f->awrite(none, 0, 0)->wait();
        f->close_remove();
    }
}

}  // namespace emflow::detail
