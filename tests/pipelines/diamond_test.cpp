// The Diamond graph: traditional and parallel variants give identical output and checksums,
// equal to an in-memory reference; several runs per sorter; no temp file left.
#include <catch2/catch.hpp>

#include <emflow/pipelines/diamond/diamond.hpp>

#include <algorithm>
#include <random>

#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines;

TEST_CASE("Diamond: traditional and parallel variants agree with the reference", "[pipelines][diamond]") {
    auto& dir = emflow_test::configure_test_disks();
    std::mt19937_64 rng(emflow_test::test_seed());
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(400000 + rng() % 1000)}) {
        diamond_input in;
        std::vector<diamond_pair> ref;
        checksum ref_in;
        for (std::size_t i = 0; i < n; ++i) {
            diamond_pair p{rng() % (n / 2 + 1), rng() % (n / 2 + 1)};  // duplicates in both
            in.push_back(p);
            ref.push_back(p);
            ref_in.add(p);
        }
        std::sort(ref.begin(), ref.end());
        diamond_config cfg;
        cfg.memory_bytes = 16 << 20;  // about 0.2M pairs per run: several runs per sorter
        cfg.async_buffer_elems = 1 + rng() % 5000;

        diamond_output out_t, out_p;
        auto sums_t = run_diamond(in, out_t, diamond_variant::traditional, cfg);
        auto sums_p = run_diamond(in, out_p, diamond_variant::parallel, cfg);

        REQUIRE(out_t.size() == n);
        REQUIRE(out_p.size() == n);
        std::vector<diamond_quad> vt(out_t.begin(), out_t.end()), vp(out_p.begin(), out_p.end());
        CHECK(vt == vp);
        checksum ref_out;
        bool matches_ref = true;
        for (std::size_t i = 0; i < n; ++i) {
            matches_ref = matches_ref && vt[i].first == ref[i] && vt[i].second == ref[i];
            ref_out.add(vt[i]);
        }
        CHECK(matches_ref);
        for (auto* s : {&sums_t, &sums_p}) {
            CHECK(s->input == ref_in);
            CHECK(s->asc_path == ref_in);
            CHECK(s->desc_path == ref_in);
            CHECK(s->output == ref_out);
        }
    }
    CHECK(dir.entries() == 0);
}
