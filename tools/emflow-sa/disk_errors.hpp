// SPDX-License-Identifier: BSL-1.0
// emflow-sa's word on disks: how much temporary disk a build may need (the --tmp-capacity it
// advises), and the one line an I/O error becomes: which disk ran full, where, and what to give.
#pragma once

#include "errors.hpp"
#include "options.hpp"

#include <emflow/progress.hpp>

#include <stxxl/mng>

#include <sys/statvfs.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace emflow_sa {

//! The temporary disk's directory once configured (run.hpp), for the messages.
extern std::string temporary_dir;

namespace detail {

//! The most temporary disk a command may hold for an n-byte text, in bytes: a bound above the
//! peaks measured per output byte, with room for the striping over several files. Measured at
//! 16 MiB on 4 MiB of random bytes: eSAIS 1.9, with the LCP array 5.9, DC3 4.2, doubling 3.4,
//! quadrupling 3.4, check 2.3; bench/sa/README.md: eSAIS 4.1 at 2 GiB, with the LCP array 6.7
//! at 1 GiB, check --lcp 2.4.
inline std::uint64_t temporary_disk_bound(const options& o, std::uint64_t n) {
    const unsigned per_output_byte = o.command == "build" && !o.lcp.empty() ? 12 : 8;
    return n * o.index_bytes * per_output_byte;
}

//! The --tmp-capacity that holds what a command needs: a file's share must hold an output
//! (the file size limit that enforces the capacity stops the outputs too), and all of it the
//! temporary disk; whole MiB.
inline std::uint64_t advised_capacity(const options& o, unsigned files, std::uint64_t n) {
    const std::uint64_t output = n * o.index_bytes;
    const std::uint64_t bytes = std::max(output * files, temporary_disk_bound(o, n));
    const std::uint64_t mib = std::uint64_t(1) << 20;
    return (bytes + mib - 1) / mib * mib;
}

//! "--tmp-capacity 180MiB", as the command line takes it.
inline std::string capacity_option(std::uint64_t bytes) {
    return "--tmp-capacity " + std::to_string(bytes >> 20) + "MiB";
}

//! The free bytes of the file system holding dir (UINT64_MAX if it cannot be told).
inline std::uint64_t free_bytes(const std::string& dir) {
    struct statvfs fs {};
    if (dir.empty() || ::statvfs(dir.c_str(), &fs) != 0) return ~std::uint64_t(0);
    return std::uint64_t(fs.f_bavail) * fs.f_frsize;
}

//! The directory of path (".": a bare name).
inline std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

//! Free space below which a disk counts as full: a few of STXXL's blocks.
inline constexpr std::uint64_t full_below = std::uint64_t(64) << 20;

//! The line an I/O error of a command on an n-byte text becomes (os: the system's words).
inline std::string disk_error(const options& o, unsigned files, std::uint64_t n,
                              const std::string& os) {
    using emflow::format_bytes;
    const double held = double(stxxl::block_manager::get_instance()->get_maximum_allocation());
    const std::uint64_t bound = temporary_disk_bound(o, n);
    if (o.tmp_capacity > 0 && os.find("File too large") != std::string::npos) {
        const std::uint64_t advice = std::max(advised_capacity(o, files, n), 2 * o.tmp_capacity);
        return "temporary disk full (" + temporary_dir + "): --tmp-capacity " +
               format_bytes(double(o.tmp_capacity)) + " reached; give " + capacity_option(advice) +
               " (or none)";
    }
    if (free_bytes(temporary_dir) < full_below) {
        // A write cut short by the full disk is retried from where it stopped, which direct I/O
        // refuses as unaligned: the system then says "Invalid argument".
        const std::string why =
            os.find("Invalid argument") != std::string::npos ? "No space left on device" : os;
        std::string more = double(bound) > held
                               ? "needs up to " + format_bytes(double(bound) - held) + " more"
                               : "needs more than the " + format_bytes(held) + " it held";
        return "temporary disk full (" + temporary_dir + "): " + why + "; " + more +
               " (free space there, or give --tmp-dir elsewhere)";
    }
    const std::string out_dir = directory_of(o.command == "build" ? o.output : o.sa);
    if (o.command == "build" && free_bytes(out_dir) < full_below)
        return "output disk full (" + out_dir + "): " + os + "; the suffix array takes " +
               format_bytes(double(n * o.index_bytes)) +
               (o.lcp.empty() ? "" : ", and so does the LCP array");
    return "I/O error: " + os;
}

}  // namespace detail
}  // namespace emflow_sa
