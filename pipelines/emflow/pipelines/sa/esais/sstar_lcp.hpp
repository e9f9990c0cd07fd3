// emflow/pipelines/sa/esais/sstar_lcp.hpp: the LCPs of the S* suffixes adjacent in suffix order,
// which the L-pass of the LCP inducing starts from. DC3 (the recursion) gives no LCPs, so they are
// computed here, deterministically and by scans and sorts only:
//   1. names of all substrings of length 2^k (prefix doubling without discarding: name_k[i] from
//      the pair name_{k-1}[i], name_{k-1}[i + 2^(k-1)], one sort by pair and one back by
//      position), until the names are unique at some level K (2^K > every LCP of the text);
//   2. every adjacent pair (a, b) lifts its LCP l from K-1 down to 0: l += 2^k if
//      name_k[a+l] == name_k[b+l] (the two look-ups by a sort by position, a scan of level k's
//      names, a sort back).
// Cost: K levels of two sorts of n triples each and K * n indices on disk, plus per level two
// sorts of 2m look-ups (m S* suffixes); K = ceil(log2(longest repeat + 1)), small for most texts,
// up to log2(n) for highly repetitive ones. A name past the end of the text is 0.
#pragma once

#include <emflow/flow.hpp>
#include <emflow/pipelines/sa/dc3/budget.hpp>
#include <emflow/pipelines/sa/dc3/level.hpp>
#include <emflow/pipelines/sa/esais/tuples.hpp>
#include <emflow/vector_appender.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace emflow::pipelines::sa::esais_detail {

//! Position i's pair of names of the level below.
template <class Index>
struct name_pair {
    Index a, b;  //!< names of T[i..i+h) and T[i+h..i+2h)
    Index pos;   //!< i
};

//! Name pairs by pair.
template <class Index>
struct by_names {
    using T = name_pair<Index>;
    //! a < b
    bool operator()(const T& x, const T& y) const {
        if (x.a != y.a) return std::uint64_t(x.a) < std::uint64_t(y.a);
        return std::uint64_t(x.b) < std::uint64_t(y.b);
    }
    //! Below every pair.
    T min_value() const { return T{}; }
    //! Above every pair.
    T max_value() const { return T{top<Index>(), top<Index>(), top<Index>()}; }
};

//! A look-up of the name at pos for side who (2 j or 2 j + 1 of pair j).
template <class Index>
struct name_lookup {
    Index pos;  //!< position (n: past the end)
    Index who;  //!< pair and side
};

//! Look-ups (or their answers, pos holding the name) by who.
template <class Index>
struct by_who {
    using T = name_lookup<Index>;
    //! a < b
    bool operator()(const T& x, const T& y) const {
        return std::uint64_t(x.who) < std::uint64_t(y.who);
    }
    //! Below every look-up.
    T min_value() const { return T{}; }
    //! Above every look-up.
    T max_value() const { return T{top<Index>(), top<Index>()}; }
};

//! An adjacent pair of S* suffixes, a before b, with their LCP found so far.
template <class Index>
struct sstar_pair {
    Index a, b, lcp;  //!< the two positions and the LCP
};

//! Computes the S* suffixes' LCPs.
template <class Index>
class sstar_lcp {
    using names = dc3_detail::ext_vector<Index>;

public:
    //! For a text of n bytes; sorts with mem bytes and options opt.
    sstar_lcp(std::uint64_t n, std::size_t mem, sort_options opt) : n_(n), mem_(mem), opt_(opt) {}

    //! The LCP of each S* suffix of sorted (positions in suffix order) with the one before it (0
    //! for the first), in that order, into out.
    template <class OpenText, class Positions>
    void run(OpenText& open_text, const Positions& sorted, names& out) {
        if (sorted.size() > 1) build_levels(open_text);  // else no pairs
        dc3_detail::ext_vector<sstar_pair<Index>> pairs;
        {
            vector_appender<dc3_detail::ext_vector<sstar_pair<Index>>> w(pairs);
            bool first = true;
            Index prev{};
            for (typename Positions::bufreader_type r(sorted); !r.empty(); ++r) {
                if (!first) w << sstar_pair<Index>{prev, (*r).pos, Index(0)};
                prev = (*r).pos;
                first = false;
            }
            w.finish();
        }
        for (std::size_t k = levels_.size(); k-- > 0;) lift(pairs, *levels_[k], k);
        levels_.clear();
        typename dc3_detail::ext_vector<sstar_pair<Index>>::bufreader_type r(pairs);
        dc3_detail::write_vector(generate(sorted.size(),
                                          [&r, first = true]() mutable {
                                              if (first) {
                                                  first = false;
                                                  return Index(0);
                                              }
                                              const Index l = (*r).lcp;
                                              ++r;
                                              return l;
                                          }),
                                 out);
    }

private:
    //! Levels 0 (the bytes, + 1) up to the last one whose names are not unique.
    template <class OpenText>
    void build_levels(OpenText& open_text) {
        auto level0 = std::make_unique<names>();
        dc3_detail::write_vector(
            open_text() | transform([](std::uint8_t c) { return Index(unsigned(c) + 1); }),
            *level0);
        std::vector<bool> seen(256, false);
        std::uint64_t distinct = 0;
        for (typename names::bufreader_type r(*level0); !r.empty(); ++r)
            if (!seen[std::size_t((*r) - 1)]) {
                seen[std::size_t((*r) - 1)] = true;
                ++distinct;
            }
        levels_.push_back(std::move(level0));
        for (std::uint64_t h = 1; distinct < n_; h *= 2) {
            auto next = std::make_unique<names>();
            distinct = double_names(*levels_.back(), h, *next);
            if (distinct < n_) levels_.push_back(std::move(next));
        }
    }

    //! Names of length 2h from those of length h (prev) into next; returns how many differ.
    std::uint64_t double_names(const names& prev, std::uint64_t h, names& next) {
        using reader = typename names::bufreader_type;
        const std::uint64_t n = n_;
        reader here(prev);
        reader ahead(prev.cbegin() + std::ptrdiff_t(std::min(h, n)), prev.cend());
        auto pairs = generate(n, [&here, &ahead, i = std::uint64_t(0), n, h]() mutable {
            name_pair<Index> p{*here, Index(0), Index(i)};
            ++here;
            if (i + h < n) {
                p.b = *ahead;
                ++ahead;
            }
            ++i;
            return p;
        });
        std::uint64_t distinct = 0;
        auto named = dc3_detail::map_each(
            sort(std::move(pairs), by_names<Index>{}, mem_, opt_),
            [&distinct, prev_pair = name_pair<Index>{}](const name_pair<Index>& p) mutable {
                if (distinct == 0 || p.a != prev_pair.a || p.b != prev_pair.b) ++distinct;
                prev_pair = p;
                return pos_value<Index>{p.pos, Index(distinct)};
            });
        dc3_detail::write_vector(sort(std::move(named), by_pos<pos_value<Index>>{}, mem_, opt_) |
                                     transform([](const pos_value<Index>& v) { return v.value; }),
                                 next);
        return distinct;
    }

    //! Lifts every pair's LCP by 2^k where the names of level k (level) agree.
    void lift(dc3_detail::ext_vector<sstar_pair<Index>>& pairs, const names& level, std::size_t k) {
        using pair_vector = dc3_detail::ext_vector<sstar_pair<Index>>;
        const std::uint64_t n = n_;
        typename pair_vector::bufreader_type in(pairs);
        auto lookups = generate(2 * pairs.size(), [&in, j = std::uint64_t(0), n]() mutable {
            const sstar_pair<Index>& p = *in;
            const std::uint64_t at = std::uint64_t(j % 2 ? p.b : p.a) + std::uint64_t(p.lcp);
            const name_lookup<Index> x{Index(std::min(at, n)), Index(j)};
            if (j % 2) ++in;
            ++j;
            return x;
        });
        typename names::bufreader_type names_k(level);
        auto answered = dc3_detail::map_each(
            sort(std::move(lookups), by_pos<name_lookup<Index>>{}, mem_, opt_),
            [&names_k, at = std::uint64_t(0), n](const name_lookup<Index>& x) mutable {
                const std::uint64_t p = std::uint64_t(x.pos);
                if (p >= n) return name_lookup<Index>{Index(0), x.who};
                for (; at < p; ++at) ++names_k;
                return name_lookup<Index>{*names_k, x.who};
            });
        pair_vector lifted;
        typename pair_vector::bufreader_type old(pairs);
        vector_appender<pair_vector> out(lifted);
        const std::uint64_t step = std::uint64_t(1) << k;
        materialize(sort(std::move(answered), by_who<Index>{}, mem_, opt_),
                    sink<name_lookup<Index>>(
                        [&, side = 0, first = Index()](const name_lookup<Index>& x) mutable {
                            if (side == 0) {
                                first = x.pos;
                                side = 1;
                                return;
                            }
                            side = 0;
                            sstar_pair<Index> p = *old;
                            ++old;
                            if (std::uint64_t(first) != 0 && first == x.pos)
                                p.lcp = Index(std::uint64_t(p.lcp) + step);
                            out << p;
                        }));
        out.finish();
        pairs.swap(lifted);
    }

    std::uint64_t n_;
    std::size_t mem_;
    sort_options opt_;
    std::vector<std::unique_ptr<names>> levels_;  // levels 0 .. K-1
};

}  // namespace emflow::pipelines::sa::esais_detail
