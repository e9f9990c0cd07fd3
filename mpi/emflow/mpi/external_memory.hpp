// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/external_memory.hpp: each rank's disks in a directory of its own, so ranks sharing
// a temp base (one machine, or a shared file system) never share or collide on temp files.
//
//   emflow::mpi::configure_rank_external_memory(world, cfg);   //
//   cfg.tmp_base/rank-<r>/emflow-XXXXXX
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/mpi/communicator.hpp>

#include <filesystem>
#include <string>
#include <system_error>

namespace emflow::mpi {

//! configure_external_memory() under `<base>/rank-<r>` (base: cfg.tmp_base or its defaults). The
//! disk files are unlinked as soon as they are open (external_memory.hpp), so the rank's
//! directory is removed again at once if this call created it (unless cfg.keep_logs).
inline const external_memory_state& configure_rank_external_memory(const communicator& comm,
                                                                   external_memory_options cfg) {
    std::filesystem::path dir = temp_base(cfg.tmp_base) / ("rank-" + std::to_string(comm.rank()));
    std::error_code ec;
    bool created = std::filesystem::create_directory(dir, ec);
    if (ec)
        throw config_error(path_error("cannot create the rank's temp directory", dir, ec.value()));
    cfg.tmp_base = dir.string();
    const external_memory_state& state = configure_external_memory(cfg);
    if (created && !cfg.keep_logs) std::filesystem::remove(dir, ec);
    return state;
}

}  // namespace emflow::mpi
