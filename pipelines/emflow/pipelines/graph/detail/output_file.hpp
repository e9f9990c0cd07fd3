// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/output_file.hpp: an output of the graph library (a graph,
// distance or parent file) written positionally into a file without a name, linked into place
// by commit() (emflow's unnamed_file, as file_sink's): a failed or killed run leaves nothing.
#pragma once

#include <emflow/nodes/detail/unnamed_file.hpp>
#include <emflow/pipelines/graph/detail/posix_file.hpp>

#include <unistd.h>

#include <memory>
#include <string>

namespace emflow::pipelines::graph::detail {

//! A new file for path: written through file(), named path by commit(), else removed.
class output_file {
public:
    //! Creates the unnamed file in path's directory; throws std::system_error naming it.
    explicit output_file(const std::string& path) : name_(path) {
        name_.open();
        file_ = std::make_unique<posix_file>(::dup(name_.fd()), name_.shown_name());
    }
    //! The file to write (and read back).
    posix_file& file() { return *file_; }
    //! Gives the complete file its name.
    void commit() { name_.commit(); }

private:
    emflow::detail::unnamed_file name_;
    std::unique_ptr<posix_file> file_;
};

}  // namespace emflow::pipelines::graph::detail
