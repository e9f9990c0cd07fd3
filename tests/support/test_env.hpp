// SPDX-License-Identifier: BSL-1.0
// Test support: a private temp directory per test process, external memory configured in it,
// and replayable random seeds.
#pragma once

#include <emflow/external_memory.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

namespace emflow_test {

//! A fresh directory under $EMFLOW_TEST_TMP (else the system temp dir), removed at destruction.
class scoped_test_dir {
public:
    scoped_test_dir() {
        const char* base = std::getenv("EMFLOW_TEST_TMP");
        std::filesystem::path root = base && *base ? base : std::filesystem::temp_directory_path();
        std::filesystem::create_directories(root);
        std::string templ = (root / "test-XXXXXX").string();
        if (!::mkdtemp(templ.data())) throw std::runtime_error("cannot create " + templ);
        path_ = templ;
    }
    ~scoped_test_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    scoped_test_dir(const scoped_test_dir&) = delete;
    scoped_test_dir& operator=(const scoped_test_dir&) = delete;

    //! The directory.
    const std::filesystem::path& path() const { return path_; }
    //! Number of entries in it (a leaked temp file shows up here).
    std::size_t entries() const {
        std::size_t n = 0;
        for (auto it = std::filesystem::recursive_directory_iterator(path_);
             it != std::filesystem::recursive_directory_iterator(); ++it)
            ++n;
        return n;
    }

private:
    std::filesystem::path path_;
};

//! The process-wide test directory (made on first call).
inline scoped_test_dir& test_dir() {
    static scoped_test_dir dir;
    return dir;
}

//! The process-wide test directory, with STXXL's disks configured in it as cfg says (a
//! capacity-limited disk, another I/O method). STXXL's disks are configured once per process,
//! so the test must be its process's first: run after another one (a whole test binary run by
//! hand) it would test the other's disks, and this throws.
inline scoped_test_dir& configure_test_disks(emflow::external_memory_options cfg) {
    if (emflow::external_memory_configured())
        throw std::logic_error(
            "this test configures its own disks and must run in a process of its own: run it "
            "through ctest, or alone by its name (with a comma in the name escaped as \\,)");
    cfg.tmp_base = test_dir().path().string();
    emflow::configure_external_memory(cfg);
    return test_dir();
}

//! The process-wide test directory; the default disks are configured inside it on first call.
//! Every CTest test runs in its own process, so every test gets its own directory.
inline scoped_test_dir& configure_test_disks() {
    if (!emflow::external_memory_configured()) return configure_test_disks({});
    return test_dir();
}

//! A seed from $EMFLOW_TEST_SEED (to replay a run) or a fresh random one; printed either way.
inline std::uint64_t test_seed() {
    std::uint64_t seed;
    if (const char* s = std::getenv("EMFLOW_TEST_SEED"); s && *s)
        seed = std::strtoull(s, nullptr, 10);
    else
        seed = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ std::random_device{}();
    std::cout << "seed " << seed << " (replay with EMFLOW_TEST_SEED=" << seed << ")\n";
    return seed;
}

//! True in an AddressSanitizer build, which runs several times slower: big tests shrink there.
constexpr bool under_address_sanitizer() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#else
    return false;
#endif
}

}  // namespace emflow_test
