// emflow/pipelines/sa/build.hpp: one entry point for every suffix-array construction of emflow,
// chosen by name (as the emflow-sa tool does).
//
//   build_suffix_array<emflow::uint40>(sa_algorithm::dc3, [&] { return
//   file_source<std::uint8_t>(p); },
//                                      n, sa_vector, cfg);
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/config.hpp>
#include <emflow/pipelines/sa/dc3.hpp>
#include <emflow/pipelines/sa/doubling.hpp>
#include <emflow/pipelines/sa/esais.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace emflow::pipelines::sa {

//! The constructions.
enum class sa_algorithm {
    dc3,          //!< the skew algorithm (Figure 9 of the parallel pipelining paper)
    doubling,     //!< prefix doubling (Figure 8)
    quadrupling,  //!< prefix doubling with 4-tuples: fewer, wider rounds
    esais         //!< induced sorting on the bulk-parallel priority queue
};

//! Parses "dc3", "doubling", "quadrupling" or "esais"; std::invalid_argument otherwise.
inline sa_algorithm parse_sa_algorithm(const std::string& name) {
    if (name == "dc3") return sa_algorithm::dc3;
    if (name == "doubling") return sa_algorithm::doubling;
    if (name == "quadrupling") return sa_algorithm::quadrupling;
    if (name == "esais") return sa_algorithm::esais;
    throw std::invalid_argument("emflow: unknown suffix-array algorithm '" + name + "'");
}

namespace build_detail {

template <class Index, class OpenText, class Out>
void run(sa_algorithm algorithm, OpenText& open_text, std::uint64_t n, Out& out,
         const sa_config& cfg) {
    switch (algorithm) {
        case sa_algorithm::dc3:
            return dc3<Index>(open_text, n, out, cfg);
        case sa_algorithm::doubling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 2);
        case sa_algorithm::quadrupling:
            return prefix_doubling<Index>(open_text, n, out, cfg, 4);
        case sa_algorithm::esais:
            return esais<Index>(open_text, n, out, cfg);
    }
}

}  // namespace build_detail

//! The suffix array of the n-byte text read by open_text() (a fresh pull node of bytes per
//! call), materialized into out (an stxxl::vector<Index> or a push node of Index). Texts that
//! 32-bit indices address are sorted with them whatever Index is (tuples a fifth to a half
//! smaller sort that much faster) and widened on the way out.
template <class Index, class OpenText, class Out>
void build_suffix_array(sa_algorithm algorithm, OpenText&& open_text, std::uint64_t n, Out&& out,
                        const sa_config& cfg = {}) {
    using narrow = std::uint32_t;
    if constexpr (sizeof(Index) > sizeof(narrow)) {
        if (n <= max_text_length<narrow>()) {
            auto widen = [](narrow x) { return Index(x); };
            if constexpr (emflow::detail::is_push_node<std::decay_t<Out>>::value) {
                // Erased, so that the 32-bit construction compiles once for every output type.
                auto widening = push_transform<narrow>(out, widen);
                any_push_sink<narrow> narrow_out(widening);
                return build_detail::run<narrow>(algorithm, open_text, n, narrow_out, cfg);
            } else {
                typename stxxl::VECTOR_GENERATOR<narrow>::result sa32;
                build_detail::run<narrow>(algorithm, open_text, n, sa32, cfg);
                return materialize(streamify(sa32) | transform(widen), out);
            }
        }
    }
    build_detail::run<Index>(algorithm, open_text, n, out, cfg);
}

}  // namespace emflow::pipelines::sa
