// SPDX-License-Identifier: BSL-1.0
// tests/buffer_tree/tree_test.cpp: the buffer tree's engine (detail/buffer_tree/tree.hpp): a
// dictionary's root of up to max(b, m/4) children, which holds each child's partial last block
// back so that its pushes are whole blocks; requests as a buffer stores them (records.hpp).
#include <catch2/catch.hpp>

#include <emflow/buffer_tree.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "test_env.hpp"

namespace {

using u64 = std::uint64_t;
constexpr std::size_t block = 4096;
using engine = emflow::detail::buffer_tree::tree<u64, u64, std::less<u64>, block>;
using emflow::detail::buffer_tree::op_kind;

//! A dictionary's sizes at m = 64: (a, b) = (2, 8), a root of up to 16 children.
emflow::detail::buffer_tree::tree_params dictionary_params() {
    return emflow::detail::buffer_tree::resolve_dictionary_params(
        64 * block, block, engine::request_block_items, 0, 0, 0);
}

//! Inserts n random keys into a tree with p (flushed if flush); returns what it did.
struct grown {
    emflow::detail::buffer_tree::io_counts io;
    std::size_t height;
};
grown grow(emflow::detail::buffer_tree::tree_params p, std::size_t n, bool flush, u64 seed) {
    engine t(std::less<u64>(), p, [](const engine::req&, const engine::elem*) {});
    std::mt19937_64 rng(seed);
    for (u64 i = 0; i < n; ++i) t.add({rng(), i, i, op_kind::insert});
    if (flush) t.flush();
    t.verify();
    return {t.io(), t.height()};
}

//! Requests per block pushed to a buffer, against a block's capacity.
double push_fill(const emflow::detail::buffer_tree::io_counts& io) {
    const double blocks = double(io.pushed_internal + io.pushed_leaf_node);
    return double(io.pushed_items) / (blocks * double(engine::stored_block_items));
}

}  // namespace

TEST_CASE("a dictionary's root takes up to m/4 children: one level less", "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    const u64 seed = emflow_test::test_seed();
    auto narrow = dictionary_params();
    narrow.root_fanout = 0;       // b = 8 children at most
    const std::size_t n = 20000;  // about 80 leaves of 256 pairs: 10 to 40 leaf nodes
    CHECK(grow(dictionary_params(), n, true, seed).height == 2);
    CHECK(grow(narrow, n, true, seed).height == 3);
    CHECK(dir.entries() == 0);
}

TEST_CASE("a dictionary's root holds partial blocks back: its pushes are whole blocks",
          "[buffer_tree]") {
    auto& dir = emflow_test::configure_test_disks();
    const u64 seed = emflow_test::test_seed();
    auto p = dictionary_params();
    auto no_hold = p;
    no_hold.root_hold_items = 0;
    const std::size_t n = 30000;  // a root of up to 16 leaf nodes, not flushed: only it pushes
    const grown held = grow(p, n, false, seed), pushed = grow(no_hold, n, false, seed);
    REQUIRE(held.height == 2);
    REQUIRE(pushed.height == 2);
    INFO("fill with holding " << push_fill(held.io) << ", without " << push_fill(pushed.io));
    CHECK(push_fill(held.io) > 0.97);
    CHECK(push_fill(pushed.io) < 0.95);  // about 0.86: partial last blocks
    CHECK(dir.entries() == 0);
}

TEST_CASE("a buffer stores 8-byte keys and values without time stamps, a look-up with its ticket",
          "[buffer_tree]") {
    namespace bt = emflow::detail::buffer_tree;
    static_assert(sizeof(bt::stored_request<u64, u64>) == 24);
    static_assert(sizeof(bt::stored_request<u64, std::uint32_t>) ==
                  sizeof(bt::request<u64, std::uint32_t>));
    // stored, then loaded behind 3 requests: a buffer's order gives the time
    auto loaded = [](auto r) {
        using stored = bt::stored_request<u64, decltype(r.value)>;
        const stored s = stored::store(r);
        std::vector<decltype(r)> out(3);
        stored::append(&s, 1, out);
        REQUIRE(out.size() == 4);
        return out.back();
    };
    const auto back = loaded(bt::make_request<u64, u64>(5, 0, 1234567890123, op_kind::lookup));
    CHECK(back.key == 5);
    CHECK(back.time == 3);  // its position: a buffer's order
    CHECK(back.op == op_kind::lookup);
    CHECK(bt::ticket_of(back) == 1234567890123);
    const auto value = loaded(bt::make_request<u64, u64>(5, 77, 9, op_kind::insert));
    CHECK(value.value == 77);
    CHECK(value.time == 3);
    CHECK(value.op == op_kind::insert);
    const auto kept =
        loaded(bt::make_request<u64, std::uint32_t>(5, 0, 1234567890123, op_kind::lookup));
    CHECK(bt::ticket_of(kept) == 1234567890123);
}
