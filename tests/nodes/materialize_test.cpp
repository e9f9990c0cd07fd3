// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/nodes/materialize.hpp's least_memory(src, out): the least budget of a run into
// a file_sink, an stxxl::vector and an output iterator is exact (it runs with it, not with a
// byte less), the sink's own memory included.
#include <emflow/flow.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "test_env.hpp"

using namespace emflow;
using u64 = std::uint64_t;
using ext_vector = stxxl::VECTOR_GENERATOR<u64>::result;

namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

//! 100000 values, reversed by the graph's sort.
std::vector<u64> input() {
    std::vector<u64> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 7919) % v.size();
    return v;
}

//! Options with a budget of bytes.
run_options budget(std::size_t bytes) {
    run_options opt;
    opt.memory_bytes = bytes;
    return opt;
}

}  // namespace

TEST_CASE("least_memory(src, file_sink) counts the sink's writer and is exact", "[materialize]") {
    auto& dir = emflow_test::configure_test_disks();
    const std::vector<u64> v = input();
    auto graph = [&] { return streamify(v) | sort(std::greater<>()); };
    const std::string path = (dir.path() / "sorted").string();
    std::size_t least = 0;
    {
        file_sink<u64> out(path);
        least = least_memory(graph(), out);
    }
    CHECK(least >= least_memory(graph()) + 2 * MiB);  // the file writer's buffers
    for (std::size_t less : {std::size_t(1), MiB}) {
        file_sink<u64> out(path);
        CHECK_THROWS_AS(materialize(graph(), out, budget(least - less)), config_error);
    }
    {
        file_sink<u64> out(path);
        materialize(graph(), out, budget(least));
        out.commit();
    }
    auto back = file_source<u64>(path);
    std::vector<u64> got;
    materialize(back, std::back_inserter(got));
    REQUIRE(got.size() == v.size());
    CHECK(got.front() == v.size() - 1);
    CHECK(got.back() == 0);
}

TEST_CASE("least_memory(src, stxxl::vector) counts the vector's writer and is exact",
          "[materialize]") {
    emflow_test::configure_test_disks();
    const std::vector<u64> v = input();
    auto graph = [&] { return streamify(v) | sort(std::greater<>()); };
    ext_vector out;
    out.push_back(7);
    const std::size_t least = least_memory(graph(), out);
    CHECK(out.size() == 1);  // not touched
    std::vector<u64> scratch;
    CHECK(least > least_memory(graph(), std::back_inserter(scratch)));
    CHECK_THROWS_AS(materialize(graph(), out, budget(least - 1)), config_error);
    CHECK_THROWS_AS(materialize(graph(), out, budget(least - MiB)), config_error);
    materialize(graph(), out, budget(least));
    REQUIRE(out.size() == v.size());
    CHECK(out[0] == v.size() - 1);
}

TEST_CASE("least_memory(src, iterator) is exact", "[materialize]") {
    emflow_test::configure_test_disks();
    const std::vector<u64> v = input();
    auto graph = [&] { return streamify(v) | sort(std::greater<>()); };
    std::vector<u64> out;
    const std::size_t least = least_memory(graph(), std::back_inserter(out));
    CHECK_THROWS_AS(materialize(graph(), std::back_inserter(out), budget(least - 1)), config_error);
    materialize(graph(), std::back_inserter(out), budget(least));
    CHECK(out.size() == v.size());
}
