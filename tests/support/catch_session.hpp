// SPDX-License-Identifier: BSL-1.0
// emflow_test::run_catch_session: runs Catch2's session over the command line, for the test
// binaries' mains; compiled once with Catch2's implementation (catch_session.cpp).
#pragma once

namespace emflow_test {

//! Catch::Session().run(argc, argv): 0 if every selected test case passed.
int run_catch_session(int argc, char** argv);

}  // namespace emflow_test
