// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/generate.hpp: a source of n elements produced by a callable, called once per
// element in order (so it may be stateful, e.g. a random number generator).
//
//   auto rnd = generate(n, [rng = std::mt19937_64(seed)]() mutable { return rng(); });
#pragma once

#include <emflow/nodes/refill_source.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace emflow {

//! Source of n elements f(), f(), ...; batches of chunk elements through a plain pointer.
template <class F>
auto generate(std::uint64_t n, F f, std::size_t chunk = default_chunk) {
    using T = std::decay_t<std::invoke_result_t<F&>>;
    return refill_source<T>(
        [f = std::move(f), left = n](T* out, std::size_t cap) mutable {
            std::size_t k = left < cap ? static_cast<std::size_t>(left) : cap;
            for (std::size_t i = 0; i < k; ++i) out[i] = f();
            left -= k;
            return k;
        },
        chunk);
}

}  // namespace emflow
