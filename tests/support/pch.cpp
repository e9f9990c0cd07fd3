// The translation unit that precompiles the tests' common headers (tests/CMakeLists.txt).
