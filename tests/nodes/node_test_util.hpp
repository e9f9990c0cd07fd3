// SPDX-License-Identifier: BSL-1.0
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

//! An element read between skips: its index in the stream and its value.
template <class T>
struct read_at {
    std::uint64_t index;  //!< where
    T value;              //!< what
};

//! Runs the graph ending in node (a stream of n elements) and consumes it by random reads
//! (element-wise and batches) and skip_ahead() calls of every reach: within a batch, a few
//! chunks of chunk_elems, far, to the end and past it. Checks that every skip passes
//! min(its length, what is left) and returns the elements read with their indices.
template <class Node>
std::vector<read_at<emflow::value_t<Node>>> drain_skipping(Node& node, std::uint64_t n,
                                                           std::size_t chunk_elems,
                                                           std::mt19937_64& rng) {
    std::vector<read_at<emflow::value_t<Node>>> out;
    emflow::run_graph([&](emflow::run_context& ctx) { node.start(ctx); },
                      [&](emflow::run_context&) {
                          std::uint64_t at = 0;
                          while (!node.empty()) {
                              switch (rng() % 4) {
                                  case 0:  // one element, then a skip
                                  case 1: {
                                      out.push_back({at, *node});
                                      ++node;
                                      ++at;
                                      const std::uint64_t reach[] = {
                                          rng() % 16, rng() % chunk_elems,
                                          rng() % (3 * chunk_elems), rng() % (n + 1), n + 1};
                                      const std::uint64_t k = reach[rng() % 5];
                                      const std::uint64_t passed = emflow::skip_ahead(node, k);
                                      REQUIRE(passed == std::min(k, n - at));
                                      at += passed;
                                      break;
                                  }
                                  default: {  // a batch
                                      const std::size_t len = std::min<std::size_t>(
                                          node.batch_length(), 1 + rng() % 5000);
                                      auto b = node.batch_begin();
                                      for (std::size_t i = 0; i < len; ++i)
                                          out.push_back({at + i, b[i]});
                                      node += len;
                                      at += len;
                                  }
                              }
                          }
                          REQUIRE(at == n);
                          REQUIRE(emflow::skip_ahead(node, 5) == 0);  // at the end, again
                      });
    return out;
}

//! n random values below bound.
inline std::vector<std::uint64_t> random_values(std::mt19937_64& rng, std::size_t n,
                                                std::uint64_t bound = ~std::uint64_t(0)) {
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = bound == ~std::uint64_t(0) ? rng() : rng() % bound;
    return v;
}

}  // namespace emflow_test
