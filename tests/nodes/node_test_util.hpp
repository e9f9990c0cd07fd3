// Helpers for node tests: drain a pull node inside a graph run, mixing element-wise and batch
// access with random batch sizes, and random inputs.
#pragma once

#include <emflow/flow.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace emflow_test {

//! Runs the graph ending in node and returns its elements, consumed with random batch sizes
//! (1..max_batch) and randomly element-wise or batch-wise.
template <class Node>
std::vector<emflow::value_t<Node>> drain_mixed(Node& node, std::mt19937_64& rng,
                                               std::size_t max_batch = 5000) {
    std::vector<emflow::value_t<Node>> out;
    emflow::run_graph([&](emflow::run_context& ctx) { node.start(ctx); },
                      [&](emflow::run_context&) {
                          while (!node.empty()) {
                              if (rng() % 3 == 0) {
                                  out.push_back(*node);
                                  ++node;
                                  continue;
                              }
                              std::size_t avail = node.batch_length();
                              std::size_t n = std::min<std::size_t>(avail, 1 + rng() % max_batch);
                              auto b = node.batch_begin();
                              for (std::size_t i = 0; i < n; ++i) out.push_back(b[i]);
                              node += n;
                          }
                      });
    return out;
}

//! Input sizes worth testing: empty, one element, small and a few random larger ones.
inline std::vector<std::size_t> test_sizes(std::mt19937_64& rng) {
    return {0,
            1,
            2,
            7,
            4096,
            4097,
            static_cast<std::size_t>(rng() % 30000),
            static_cast<std::size_t>(20000 + rng() % 60000)};
}

//! n random values below bound.
inline std::vector<std::uint64_t> random_values(std::mt19937_64& rng, std::size_t n,
                                                std::uint64_t bound = ~std::uint64_t(0)) {
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = bound == ~std::uint64_t(0) ? rng() : rng() % bound;
    return v;
}

}  // namespace emflow_test
