// SPDX-License-Identifier: BSL-1.0
// Catch2's implementation, compiled once for every test binary (the plain tests' main and the MPI
// tests' own main): it is one of the slowest files of the suite to compile.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

int emflow_test::run_catch_session(int argc, char** argv) {
    return Catch::Session().run(argc, argv);
}
