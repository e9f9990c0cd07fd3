// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/erased.hpp: the types through which the suffix-array constructions and
// checkers reach their parts compiled once per index type (emflow/pipelines/sa/compiled.hpp,
// library emflow::sa): one text source type for every text, and every output as an erased push
// sink.
#pragma once

#include <emflow/flow.hpp>

#include <cstdint>
#include <functional>
#include <type_traits>

namespace emflow::pipelines::sa {

//! Opens the text: a fresh pull node of its bytes each call.
using text_source = std::function<any_pull_source<std::uint8_t>()>;

//! open_text erased (one indirect call per batch of bytes); open_text must outlive the result.
template <class OpenText>
text_source erase_text(OpenText& open_text) {
    return [&open_text] { return any_pull_source<std::uint8_t>(open_text()); };
}

//! Calls f(sink) with out as an any_push_sink<Index>: as it is if it is one, else erased (a push
//! node as it is, an stxxl::vector through a vector_sink, converting to its value type).
template <class Index, class Out, class F>
void as_push_sink(Out& out, F&& f) {
    using O = std::decay_t<Out>;
    if constexpr (std::is_same_v<O, any_push_sink<Index>>) {
        f(out);
    } else if constexpr (emflow::is_push_node_v<O>) {
        any_push_sink<Index> sink(out);
        f(sink);
    } else if constexpr (std::is_same_v<typename O::value_type, Index>) {
        auto writer = vector_sink(out);
        any_push_sink<Index> sink(writer);
        f(sink);
    } else {  // a vector of another integer type: converted on the way in
        auto writer = push_transform<Index>(
            vector_sink(out), [](const Index& x) { return typename O::value_type(x); });
        any_push_sink<Index> sink(writer);
        f(sink);
    }
}

}  // namespace emflow::pipelines::sa
