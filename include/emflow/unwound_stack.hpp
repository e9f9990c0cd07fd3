// emflow/unwound_stack.hpp: keeps AddressSanitizer's view of a task's stack true after an
// exception was caught on it. A task resumed after tbb::task::suspend (emflow/flow_runtime.hpp)
// runs on one of oneTBB's coroutine stacks, which ASan does not know: when an exception unwinds
// frames there, __asan_handle_no_return gives up clearing their redzones ("ASan is ignoring
// requested __asan_handle_no_return"), and the next uninstrumented frame placed on that memory
// (the sanitizer runtime's own, on the next throw) is reported as a stack-buffer-overflow.
// Every catch handler that can run in a task calls forget_unwound_frames() first, and so does
// every task of a flow graph before its body (for handlers outside emflow, e.g. oneTBB's own
// around a parallel algorithm's body); without ASan it is empty.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace emflow::detail {

#if defined(__SANITIZE_ADDRESS__)
//! Clears the redzones left below the caller's frame by the frames an exception unwound: all of
//! that memory is dead. 256 KiB is far deeper than any throw inside emflow's tasks goes.
[[gnu::noinline]] inline void forget_unwound_frames() {
    constexpr std::size_t window = 256 * 1024;
    char here;
    auto top = reinterpret_cast<std::uintptr_t>(&here) & ~std::uintptr_t(7);
    __asan_unpoison_memory_region(reinterpret_cast<void*>(top - window), window);
}
#else
//! Nothing to do without AddressSanitizer.
inline void forget_unwound_frames() {}
#endif

}  // namespace emflow::detail
