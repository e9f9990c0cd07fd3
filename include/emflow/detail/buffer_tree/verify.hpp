// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/verify.hpp: checks of a tree's shape for tests: leaf nodes all at
// one depth, every node but the root with a to b children (an internal root: up to
// max(b, root_fanout); unless no cut between different
// keys could have split it), splitters and leaves' first keys in order and inside their node's
// key range.
#pragma once

#include <emflow/detail/buffer_tree/node.hpp>
#include <emflow/detail/buffer_tree/tree.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace emflow::detail::buffer_tree {

//! Checks n's subtree (file comment); lo, hi: n's key range (null: unbounded); depth: of n.
//! Returns the depth of its leaf nodes; throws std::logic_error naming the broken rule.
template <class Key, std::size_t RawBytes, class Cmp>
std::size_t verify_node(const node<Key, RawBytes>& n, const tree_params& p, const Cmp& cmp,
                        const Key* lo, const Key* hi, std::size_t depth, bool root) {
    auto fail = [&](const std::string& what) {
        throw std::logic_error("buffer tree: " + what + " at depth " + std::to_string(depth));
    };
    const std::size_t f = n.fanout();
    bool cuttable = !n.leaf_node;
    for (std::size_t j = 1; j < n.leaves.size() && !cuttable; ++j)
        cuttable = !n.leaves[j].continues;
    if (!root && f < p.fanout_min) fail("fewer than a children");
    const std::size_t most =
        root && !n.leaf_node ? std::max(p.fanout_max, p.root_fanout) : p.fanout_max;
    if (f > most && cuttable) fail("more than b children (" + std::to_string(f) + ")");
    auto inside = [&](const Key& k) { return (!lo || !cmp(k, *lo)) && (!hi || cmp(k, *hi)); };
    if (n.leaf_node) {
        for (std::size_t j = 0; j < n.leaves.size(); ++j) {
            if (!inside(n.leaves[j].first)) fail("a leaf outside its node's range");
            if (j > 0 && cmp(n.leaves[j].first, n.leaves[j - 1].first)) fail("leaves out of order");
        }
        return depth;
    }
    if (n.splitters.size() + 1 != n.children.size()) fail("splitters and children disagree");
    std::size_t leaf_depth = 0;
    for (std::size_t i = 0; i < n.children.size(); ++i) {
        const Key* clo = i == 0 ? lo : &n.splitters[i - 1];
        const Key* chi = i + 1 == n.children.size() ? hi : &n.splitters[i];
        if (i > 0 && !inside(n.splitters[i - 1])) fail("a splitter outside its node's range");
        if (i > 1 && !cmp(n.splitters[i - 2], n.splitters[i - 1])) fail("splitters out of order");
        const std::size_t d = verify_node(*n.children[i], p, cmp, clo, chi, depth + 1, false);
        if (i > 0 && d != leaf_depth) fail("leaf nodes at different depths");
        leaf_depth = d;
    }
    return leaf_depth;
}

}  // namespace emflow::detail::buffer_tree
