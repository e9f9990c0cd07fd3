// SPDX-License-Identifier: BSL-1.0
// emflow/requirements.hpp: what emflow's templates require of the callables and types a user
// hands them, as traits for static_asserts that fail with a readable message at the user's call
// instead of deep inside a template (the compiler names the element type and the callable in
// the "required from" lines right above the message).
#pragma once

#include <type_traits>

namespace emflow {

//! True if cmp(a, b) on two const T& gives something convertible to bool: a comparator of T.
template <class Cmp, class T>
inline constexpr bool is_order_of_v = std::is_invocable_r_v<bool, const Cmp&, const T&, const T&>;

//! True if f(x) on a const T& is valid and returns a value (not void): a transform of T.
template <class F, class T>
inline constexpr bool is_transform_of_v = std::is_invocable_v<const F&, const T&> &&
                                          !std::is_void_v<std::invoke_result_t<const F&, const T&>>;

//! True if pred(x) on a const T& gives something convertible to bool: a predicate of T.
template <class Pred, class T>
inline constexpr bool is_predicate_of_v = std::is_invocable_r_v<bool, Pred&, const T&>;

}  // namespace emflow
