// SPDX-License-Identifier: BSL-1.0
// tests/support/tsan/fibers.cpp: linked into every test binary of the ThreadSanitizer build;
// tells TSan about oneTBB's coroutine switches, so that suspended flow-graph tasks can run in it.
//
// tbb::task::suspend runs the suspended task's thread on a coroutine of oneTBB's own and later
// resumes the task on whichever thread takes it up: libtbb switches stacks with makecontext and
// swapcontext, which TSan does not see, so it would go on with the old stack's shadow state and
// crash or report nonsense. These definitions come first for libtbb's calls (the executable's
// symbols are looked up before libc's): each context gets a TSan fiber, made in makecontext or
// taken from the running thread when swapcontext saves it, and swapcontext switches TSan to the
// target's fiber just before the real switch, as TSan's fiber interface asks. A switch
// synchronizes (flag 0): what ran before it happens before what runs after.
#include <sanitizer/tsan_interface.h>

#include <ucontext.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "next_definition.hpp"

namespace {

//! The TSan fiber of each context libtbb made or saved.
struct fiber_table {
    std::mutex mutex;
    std::unordered_map<const ucontext_t*, void*> fibers;

    void set(const ucontext_t* c, void* fiber) {
        std::lock_guard<std::mutex> lock(mutex);
        fibers[c] = fiber;
    }
    void* get(const ucontext_t* c) {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = fibers.find(c);
        return it == fibers.end() ? nullptr : it->second;
    }
};

fiber_table& table() {
    static auto* t = new fiber_table;  // never destroyed: switches may run during exit
    return *t;
}

using emflow_test::tsan::next_definition;

}  // namespace

extern "C" void makecontext(ucontext_t* c, void (*fn)(), int argc, ...) {
    // oneTBB passes its coroutine's entry one pointer, as two ints on x86-64 (argc 2); more
    // arguments are not forwarded here.
    if (argc != 2) {
        std::fprintf(stderr, "tsan fibers: makecontext with %d arguments\n", argc);
        std::abort();
    }
    va_list args;
    va_start(args, argc);
    const int low = va_arg(args, int), high = va_arg(args, int);
    va_end(args);
    using function = void (*)(ucontext_t*, void (*)(), int, ...);
    static const auto real = next_definition<function>("makecontext");
    real(c, fn, argc, low, high);
    table().set(c, __tsan_create_fiber(0));
}

extern "C" int swapcontext(ucontext_t* from, const ucontext_t* to) {
    using function = int (*)(ucontext_t*, const ucontext_t*);
    static const auto real = next_definition<function>("swapcontext");
    void* target = table().get(to);
    if (!target) {
        std::fputs("tsan fibers: swapcontext to a context never made nor saved\n", stderr);
        std::abort();
    }
    table().set(from, __tsan_get_current_fiber());
    __tsan_switch_to_fiber(target, 0);
    return real(from, to);
}
