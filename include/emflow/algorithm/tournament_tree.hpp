// SPDX-License-Identifier: BSL-1.0
// emflow/algorithm/tournament_tree.hpp: a winner tree over a dynamic number of players.
//
// Used for the queue's single-item extraction (over insertion heaps and over internal arrays)
// and for the prefetch prediction and merge limit (over the block minima of external arrays).
// Players are indices; `beats(a, b)` says whether player a wins against player b and must make
// an exhausted player lose against every other one.
#pragma once

#include <cstdint>
#include <vector>

namespace emflow::algorithm {

//! "No player": the winner of a tree without players.
constexpr std::uint32_t no_player = ~std::uint32_t(0);

//! A winner tree over a dynamic number of players (indices); `beats(a, b)` says whether a wins
//! against b.
template <class Beats>
class tournament_tree {
public:
    static constexpr std::uint32_t none = no_player;  //!< the winner of a tree without players

    //! An empty tree deciding matches by beats; rebuild() adds the players.
    explicit tournament_tree(Beats beats = Beats()) : beats_(beats) {}

    //! Rebuilds the tree over players 0..players-1.
    void rebuild(std::size_t players) {
        leaves_ = 1;
        while (leaves_ < players) leaves_ *= 2;
        node_.assign(2 * leaves_, none);
        for (std::size_t i = 0; i < players; ++i) node_[leaves_ + i] = std::uint32_t(i);
        for (std::size_t n = leaves_ - 1; n >= 1; --n)
            node_[n] = play(node_[2 * n], node_[2 * n + 1]);
        players_ = players;
    }
    //! Recomputes the games on the path of player i after its key changed.
    void replay(std::size_t i) {
        for (std::size_t n = (leaves_ + i) / 2; n >= 1; n /= 2)
            node_[n] = play(node_[2 * n], node_[2 * n + 1]);
    }
    //! The winning player (none if there are no players).
    std::uint32_t winner() const { return players_ == 0 ? none : node_[1]; }
    //! Number of players.
    std::size_t players() const { return players_; }

private:
    std::uint32_t play(std::uint32_t a, std::uint32_t b) const {
        if (a == none) return b;
        if (b == none) return a;
        return beats_(b, a) ? b : a;
    }

    Beats beats_;
    std::vector<std::uint32_t> node_;
    std::size_t leaves_ = 0;
    std::size_t players_ = 0;
};

}  // namespace emflow::algorithm
