// SPDX-License-Identifier: BSL-1.0
// tests/support/tsan/next_definition.hpp: the definition an interposed function forwards to.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace emflow_test::tsan {

//! The next definition of `name` after this binary's (libc's, libgomp's, libtbb's); aborts if
//! there is none.
template <class Function>
Function next_definition(const char* name) {
    const auto f = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
    if (!f) {
        std::fprintf(stderr, "tsan support: %s not found\n", name);
        std::abort();
    }
    return f;
}

}  // namespace emflow_test::tsan
