// SPDX-License-Identifier: BSL-1.0
// The main of every test binary but the MPI ones.
#include "catch_session.hpp"

int main(int argc, char** argv) { return emflow_test::run_catch_session(argc, argv); }
