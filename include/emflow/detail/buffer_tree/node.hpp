// SPDX-License-Identifier: BSL-1.0
// emflow/detail/buffer_tree/node.hpp: a node of the (a,b)-tree under the buffers, and the
// structural halves of Arge's rebalancing: splitting a node with more than b children into
// parts of at most b, and fusing two neighbours (which a later split shares out again).
//
// The tree's skeleton (splitters, child pointers, the block lists of buffers and leaves) lives in
// RAM: about 40 bytes per disk block, a small fraction of the data (0.2% with 16 KiB blocks).
// A leaf node's children are leaves: blocks of (key, value) elements in order. Equal keys never
// straddle two nodes (a key goes to one child), so a leaf node is cut only between leaves
// whose keys differ (continues == false).
#pragma once

#include <emflow/detail/buffer_tree/block_io.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace emflow::detail::buffer_tree {

//! A leaf: one block of elements, its first key, and whether that key continues the previous
//! leaf's last key.
template <class Key, std::size_t RawBytes>
struct leaf {
    stored_block<RawBytes> block;
    Key first;
    bool continues = false;
};

//! A node: its buffer (requests in arrival order, blocks on disk), splitters, and either child
//! nodes or (leaf node) leaves. Child i takes the keys k with splitters[i-1] <= k < splitters[i].
template <class Key, std::size_t RawBytes>
struct node {
    std::vector<stored_block<RawBytes>> buffer;
    std::vector<Key> splitters;
    std::vector<std::unique_ptr<node>> children;
    std::vector<leaf<Key, RawBytes>> leaves;
    //! A sorting tree's leaf node: its newest keys short of a full block, in order, kept in RAM
    //! (merged into the next run pushed to it, so that runs are written in full blocks).
    std::vector<Key> staged;
    bool leaf_node = true;

    //! Number of children (leaves of a leaf node).
    std::size_t fanout() const { return leaf_node ? leaves.size() : children.size(); }

    //! Gives back every block of the subtree (destruction, also after a failure).
    void free_all() noexcept {
        try {
            free_blocks(buffer);
            for (auto& l : leaves) free_block(l.block);
            leaves.clear();
            for (auto& c : children) c->free_all();
        } catch (...) {
        }
    }
};

//! Index of the child of n that takes key.
template <class Key, std::size_t RawBytes, class Cmp>
std::size_t child_index(const node<Key, RawBytes>& n, const Key& key, const Cmp& cmp) {
    std::size_t lo = 0, hi = n.splitters.size();
    while (lo < hi) {  // the first splitter greater than key
        const std::size_t mid = (lo + hi) / 2;
        if (cmp(key, n.splitters[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

//! The cut points (child indices where a new part starts) splitting f children into parts of
//! at most b; allowed(j) tells whether a part may start at child j. Fewer cuts where none is
//! allowed nearby (a leaf node of one key keeps its leaves together).
template <class Allowed>
std::vector<std::size_t> cut_points(std::size_t f, std::size_t b, Allowed allowed) {
    const std::size_t parts = (f + b - 1) / b;
    std::vector<std::size_t> cuts;
    std::size_t prev = 0;
    for (std::size_t k = 1; k < parts; ++k) {
        const std::size_t target = k * f / parts;
        for (std::size_t d = 0; d < f; ++d) {
            if (target + d < f && target + d > prev && allowed(target + d)) {
                cuts.push_back(prev = target + d);
                break;
            }
            if (d <= target && target - d > prev && allowed(target - d)) {
                cuts.push_back(prev = target - d);
                break;
            }
            if (target + d >= f && d > target) break;
        }
    }
    return cuts;
}

//! Splits child i of parent into parts of at most b children; returns false if it could not.
template <class Key, std::size_t RawBytes>
bool split_child(node<Key, RawBytes>& parent, std::size_t i, std::size_t b) {
    using node_t = node<Key, RawBytes>;
    node_t& c = *parent.children[i];
    const std::size_t f = c.fanout();
    const auto cuts =
        cut_points(f, b, [&](std::size_t j) { return !c.leaf_node || !c.leaves[j].continues; });
    if (cuts.empty()) return false;
    std::vector<std::unique_ptr<node_t>> parts;
    std::vector<Key> bounds;
    for (std::size_t k = cuts.size(); k-- > 0;) {  // from the right, so c keeps the first part
        const std::size_t lo = cuts[k];
        auto p = std::make_unique<node_t>();
        p->leaf_node = c.leaf_node;
        if (c.leaf_node) {
            bounds.push_back(c.leaves[lo].first);
            p->leaves.assign(c.leaves.begin() + lo, c.leaves.end());
            c.leaves.resize(lo);
            p->leaves.front().continues = false;
        } else {
            bounds.push_back(c.splitters[lo - 1]);
            for (std::size_t j = lo; j < c.children.size(); ++j)
                p->children.push_back(std::move(c.children[j]));
            p->splitters.assign(c.splitters.begin() + lo, c.splitters.end());
            c.children.resize(lo);
            c.splitters.resize(lo - 1);
        }
        parts.push_back(std::move(p));
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {  // parts and bounds are right to left
        parent.children.insert(parent.children.begin() + i + 1, std::move(parts[k]));
        parent.splitters.insert(parent.splitters.begin() + i, bounds[k]);
    }
    return true;
}

//! Where sharing children i and i + 1 of parent out into two nodes would cut their
//! concatenated children (near the middle, between different keys), if both parts then have lo
//! to hi children; else 0.
template <class Key, std::size_t RawBytes>
std::size_t share_cut(const node<Key, RawBytes>& parent, std::size_t i, std::size_t lo,
                      std::size_t hi) {
    const auto& l = *parent.children[i];
    const auto& r = *parent.children[i + 1];
    const std::size_t fl = l.fanout(), total = fl + r.fanout();
    const auto cuts = cut_points(total, (total + 1) / 2, [&](std::size_t j) {
        if (!l.leaf_node || j == fl) return true;
        return j < fl ? !l.leaves[j].continues : !r.leaves[j - fl].continues;
    });
    if (cuts.size() != 1) return 0;
    const std::size_t left = cuts[0], right = total - cuts[0];
    return left >= lo && left <= hi && right >= lo && right <= hi ? left : 0;
}

//! Fuses child i + 1 of parent into child i (both with empty buffers).
template <class Key, std::size_t RawBytes>
void fuse_children(node<Key, RawBytes>& parent, std::size_t i) {
    auto& left = *parent.children[i];
    auto& right = *parent.children[i + 1];
    if (left.leaf_node) {
        left.leaves.insert(left.leaves.end(), right.leaves.begin(), right.leaves.end());
        right.leaves.clear();
    } else {
        left.splitters.push_back(parent.splitters[i]);
        left.splitters.insert(left.splitters.end(), right.splitters.begin(), right.splitters.end());
        for (auto& ch : right.children) left.children.push_back(std::move(ch));
    }
    parent.children.erase(parent.children.begin() + i + 1);
    parent.splitters.erase(parent.splitters.begin() + i);
}

}  // namespace emflow::detail::buffer_tree
