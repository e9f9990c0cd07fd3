// SPDX-License-Identifier: BSL-1.0
// The translation unit that precompiles the tests' common headers (tests/CMakeLists.txt).
