// emflow/pipelines/sa/build.hpp: one entry point for every suffix-array construction of emflow,
// chosen by name (as the emflow-sa tool does).
//
//   build_suffix_array<emflow::uint40>(sa_algorithm::dc3, [&] { return file_source<std::uint8_t>(p); },
//                                      n, sa_vector, cfg);
#pragma once

#include <emflow/pipelines/sa/config.hpp>
#include <emflow/pipelines/sa/dc3.hpp>
#include <emflow/pipelines/sa/doubling.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace emflow::pipelines::sa {

//! The constructions.
enum class sa_algorithm {
    dc3,         //!< the skew algorithm (Figure 9 of the parallel pipelining paper)
    doubling,    //!< prefix doubling (Figure 8)
    quadrupling  //!< prefix doubling with 4-tuples: fewer, wider rounds
};

//! Parses "dc3", "doubling" or "quadrupling"; std::invalid_argument otherwise.
inline sa_algorithm parse_sa_algorithm(const std::string& name) {
    if (name == "dc3") return sa_algorithm::dc3;
    if (name == "doubling") return sa_algorithm::doubling;
    if (name == "quadrupling") return sa_algorithm::quadrupling;
    throw std::invalid_argument("emflow: unknown suffix-array algorithm '" + name + "'");
}

//! The suffix array of the n-byte text read by open_text() (a fresh pull node of bytes per
//! call), materialized into out (an stxxl::vector<Index> or a push node of Index).
template <class Index, class OpenText, class Out>
void build_suffix_array(sa_algorithm algorithm, OpenText&& open_text, std::uint64_t n, Out&& out,
                        const sa_config& cfg = {}) {
    switch (algorithm) {
        case sa_algorithm::dc3:
            return dc3<Index>(open_text, n, out, cfg);
        case sa_algorithm::doubling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 2);
        case sa_algorithm::quadrupling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 4);
    }
}

}  // namespace emflow::pipelines::sa
