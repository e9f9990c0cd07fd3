// SPDX-License-Identifier: BSL-1.0
// suffix_array: emflow's suffix-array constructions as a library: a text in an stxxl::vector,
// its suffix array by DC3 into another stxxl::vector (32-bit indices: texts below 4 GiB),
// checked by the external checker, with progress on stderr. The emflow-sa tool does the same for
// files; pipelines/emflow/pipelines/sa/build.hpp chooses among all constructions and index widths
// at run time. With compiled.hpp and the library emflow::sa (which this example links) none of
// the constructions compiles here; without them, include dc3.hpp and checker.hpp alone.
//
//   suffix_array [text_mib=16] [memory_mib=64] [--quiet]
#include <emflow/pipelines/sa/compiled.hpp>
#include <stxxl/vector>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>

int main(int argc, char** argv) {
    using namespace emflow::pipelines::sa;
    const std::uint64_t n = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16) << 20;
    const std::uint64_t memory = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64) << 20;
    const bool quiet = argc > 3 && std::string(argv[3]) == "--quiet";
    emflow::configure_external_memory();

    // A DNA-like text with repeats: random letters, every 64 KiB a copy of an earlier stretch.
    stxxl::VECTOR_GENERATOR<std::uint8_t>::result text;
    std::mt19937_64 rng(1);
    for (std::uint64_t i = 0; i < n; ++i)
        text.push_back(i % 65536 < 1000 && i >= 65536 ? std::uint8_t(text[i - 65536 + 17])
                                                      : std::uint8_t("ACGT"[rng() % 4]));

    std::optional<emflow::progress> report;
    if (!quiet) report.emplace(emflow::stderr_renderer());
    sa_options cfg;
    cfg.memory_bytes = memory;
    cfg.report = report ? &*report : nullptr;

    sa_vector<std::uint32_t> sa;  // the vector type emflow::sa is compiled for
    dc3<std::uint32_t>([&] { return emflow::streamify(text); }, text.size(), sa, cfg);
    check_result r =
        check_suffix_array<std::uint32_t>([&] { return emflow::streamify(text); }, text.size(),
                                          [&] { return emflow::streamify(sa); }, sa.size(), cfg);
    std::cout << "suffix array of " << n << " bytes: " << (r.ok ? "verified" : r.reason) << "\n";
    return r.ok ? 0 : 1;
}
