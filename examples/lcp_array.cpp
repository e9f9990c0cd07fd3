// SPDX-License-Identifier: BSL-1.0
// lcp_array: the suffix and LCP arrays of a text by eSAIS into stxxl::vectors (32-bit indices:
// texts below 4 GiB), both checked by the external checkers, with progress on stderr. The LCP
// checker reads the arrays from an entry on (open_from below): it checks its pairs in slices.
//
//   lcp_array [text_mib=16] [memory_mib=64] [--quiet]
#include <emflow/pipelines/sa/compiled.hpp>  // with emflow::sa: eSAIS comes compiled
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

    // English-like words with repeated phrases: long common prefixes for the LCP array.
    const char* words[] = {"the ", "queue ", "sorts ", "suffix ", "array ", "of ", "a ", "text "};
    stxxl::VECTOR_GENERATOR<std::uint8_t>::result text;
    std::mt19937_64 rng(1);
    while (text.size() < n)
        for (const char* c = words[rng() % 8]; *c && text.size() < n; ++c) text.push_back(*c);

    std::optional<emflow::progress> report;
    if (!quiet) report.emplace(emflow::stderr_renderer());
    sa_options cfg;
    cfg.memory_bytes = memory;
    cfg.report = report ? &*report : nullptr;

    using vector = sa_vector<std::uint32_t>;  // the vector type emflow::sa is compiled for
    vector sa, lcp;
    auto open_text = [&] { return emflow::streamify(text); };
    try {
        esais<std::uint32_t>(open_text, n, sa, lcp, cfg);
    } catch (const emflow::config_error& e) {  // a budget below the least one, before any work
        std::cerr << "lcp_array: " << e.what() << "\n";
        return 2;
    }

    check_result r = check_suffix_array<std::uint32_t>(
        open_text, n, [&] { return emflow::streamify(sa); }, sa.size(), cfg);
    if (r.ok) {
        auto open_from = [](const vector& v) {
            return [&v](std::uint64_t k) {
                return emflow::streamify(v.cbegin() + std::int64_t(k), v.cend());
            };
        };
        r = check_lcp_array<std::uint32_t>(open_text, n, open_from(sa), open_from(lcp), lcp.size(),
                                           cfg);
    }
    std::cout << "suffix and LCP arrays of " << n << " bytes: " << (r.ok ? "verified" : r.reason)
              << "\n";
    return r.ok ? 0 : 1;
}
