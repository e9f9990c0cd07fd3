// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/distributed_sort.hpp: sample sort across the ranks of a communicator. Afterwards
// rank r holds a sorted slice of the union of all ranks' inputs, and the slices are ordered by
// rank (every item on rank r is not greater than any item on rank r+1).
//
// 1. Sampling: one pass over the local input draws a uniform sample (reservoir sampling) of
//    samples_per_rank items, each tagged with (rank, local index). Tagged items are all distinct,
//    so splitters cut even a run of equal keys where its share of items ends: the slices stay
//    balanced under few distinct keys.
// 2. Splitters: every rank gathers all samples (each weighted by its rank's input size over its
//    sample size, so ranks with little or no input count less or not at all), sorts them and
//    takes the p-1 weighted quantiles. Every rank computes the same splitters.
// 3. Exchange and local sort: a second pass routes each tagged item to the number of splitters
//    below it (exchange.hpp) and the received items are sorted by the external sort node into
//    out, in one flow graph: sending, receiving and run formation overlap.
// Failures: each phase ends with agree_on_errors() (agree.hpp), and the exchange sends ABORT to
// the peers of a failing rank, so an error on any rank is thrown on every rank.
//
//   distributed_sort(comm, [&] { return streamify(input); }, output, cmp, 512 << 20);
//
// make_source() must yield the same sequence each time it is called (twice). Memory: the sort
// uses memory_bytes; the exchange adds its buffers (exchange_options) and the samples of all
// ranks are held while the splitters are chosen.
#pragma once

#include <emflow/mpi/agree.hpp>
#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/exchange.hpp>
#include <emflow/nodes/materialize.hpp>
#include <emflow/nodes/sort.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <random>
#include <vector>

namespace emflow::mpi {

//! Tuning of distributed_sort().
struct distributed_sort_options {
    std::size_t samples_per_rank = 0;  //!< sample size drawn on each rank; 0: 1024 + 64 per rank
    exchange_options exchange;         //!< messages and buffers of the exchange
    sort_options local;                //!< the local external sort
    std::uint64_t seed = 0x5eed;       //!< sampling seed (mixed with the rank)
};

//! What distributed_sort() did on this rank.
struct distributed_sort_stats {
    std::uint64_t input_items = 0;   //!< items of this rank's input
    std::uint64_t output_items = 0;  //!< items of its sorted slice
    std::uint64_t total_items = 0;   //!< items over all ranks
    exchange_stats exchange;         //!< the exchange's counters on this rank
};

namespace detail {

//! An item with its place of origin: distinct even when keys are equal.
template <class T>
struct tagged_item {
    T item;
    std::uint64_t rank;
    std::uint64_t index;
};

//! Order by cmp, ties broken by (rank, index).
template <class T, class Cmp>
bool tagged_less(const Cmp& cmp, const tagged_item<T>& a, const tagged_item<T>& b) {
    if (cmp(a.item, b.item)) return true;
    if (cmp(b.item, a.item)) return false;
    return a.rank != b.rank ? a.rank < b.rank : a.index < b.index;
}

//! Push node keeping a uniform sample of what is pushed (reservoir sampling).
template <class T>
class reservoir_sampler {
public:
    using value_type = T;  //!< element type

    //! A sample of at most size items, tagged with rank.
    reservoir_sampler(std::size_t size, std::uint64_t rank, std::uint64_t seed)
        : size_(size), rank_(rank), rng_(seed) {}

    //! Nothing to start.
    void start(run_context&) {}
    //! Offers x to the sample.
    void push(const T& x) {
        std::uint64_t i = seen_++;
        if (i < size_) {
            sample_.push_back({x, rank_, i});
        } else {
            std::uint64_t j = std::uniform_int_distribution<std::uint64_t>(0, i)(rng_);
            if (j < size_) sample_[j] = {x, rank_, i};
        }
    }
    //! Offers n items.
    void push_batch(const T* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) push(p[i]);
    }
    //! Nothing to finish.
    void push_stop() {}

    //! The sample.
    const std::vector<tagged_item<T>>& sample() const { return sample_; }
    //! Items seen.
    std::uint64_t seen() const { return seen_; }

private:
    std::size_t size_;
    std::uint64_t rank_;
    std::mt19937_64 rng_;
    std::uint64_t seen_ = 0;
    std::vector<tagged_item<T>> sample_;
};

//! The p-1 weighted quantiles of all ranks' samples (collective; the same on every rank).
template <class T, class Cmp>
std::vector<tagged_item<T>> choose_splitters(const communicator& comm,
                                             const std::vector<tagged_item<T>>& mine,
                                             std::uint64_t local_items, const Cmp& cmp,
                                             std::uint64_t& total_items) {
    std::vector<std::uint64_t> items = comm.allgather(local_items);
    std::vector<std::uint64_t> drawn = comm.allgather<std::uint64_t>(mine.size());
    std::vector<tagged_item<T>> all = comm.allgatherv(mine);
    std::sort(all.begin(), all.end(), [&](const tagged_item<T>& a, const tagged_item<T>& b) {
        return tagged_less(cmp, a, b);
    });
    total_items = 0;
    for (std::uint64_t n : items) total_items += n;
    std::size_t p = std::size_t(comm.size());
    std::vector<tagged_item<T>> splitters;
    if (all.empty()) return splitters;  // no input anywhere: nothing is routed
    double cum = 0;
    for (const auto& s : all) {
        cum += double(items[s.rank]) / double(drawn[s.rank]);
        while (splitters.size() + 1 < p &&
               cum >= double(total_items) * double(splitters.size() + 1) / double(p))
            splitters.push_back(s);
    }
    while (splitters.size() + 1 < p) splitters.push_back(all.back());  // rounding at the end
    return splitters;
}

}  // namespace detail

//! Sorts the union of every rank's make_source() by cmp (an STXXL comparator) across the ranks
//! of comm into out (an stxxl::vector, replaced, or an output iterator): see the file comment.
//! Collective. Throws on every rank if any rank failed.
template <class MakeSource, class Out, class Cmp>
distributed_sort_stats distributed_sort(const communicator& comm, MakeSource make_source, Out& out,
                                        Cmp cmp, std::size_t memory_bytes,
                                        distributed_sort_options opt = {}) {
    using T = value_t<decltype(make_source())>;
    distributed_sort_stats stats;
    // A bucket's share is estimated from about samples_per_rank samples: 1024 keep it within a
    // few percent; the gathered samples grow with p^2, hence the modest growth with p.
    std::size_t samples =
        opt.samples_per_rank ? opt.samples_per_rank : 1024 + 64 * std::size_t(comm.size());
    detail::reservoir_sampler<T> sampler(
        samples, std::uint64_t(comm.rank()),
        opt.seed ^ (0x9E3779B97F4A7C15ull * std::uint64_t(comm.rank() + 1)));
    std::exception_ptr error;
    try {
        materialize(make_source(), sampler);
    } catch (...) {
        error = std::current_exception();
    }
    agree_on_errors(comm, error);
    stats.input_items = sampler.seen();
    auto splitters =
        detail::choose_splitters(comm, sampler.sample(), sampler.seen(), cmp, stats.total_items);

    std::uint64_t rank = std::uint64_t(comm.rank());
    auto rank_of = [&splitters, &cmp, rank, index = std::uint64_t(0)](const T& x) mutable {
        detail::tagged_item<T> t{x, rank, index++};
        auto it = std::lower_bound(
            splitters.begin(), splitters.end(), t,
            [&](const auto& s, const auto& v) { return detail::tagged_less(cmp, s, v); });
        return int(it - splitters.begin());
    };
    try {
        exchange<T> x(comm, opt.exchange);
        materialize(route(make_source(), x, rank_of) | sort(cmp, memory_bytes, opt.local), out);
        stats.exchange = x.stats();
    } catch (...) {
        error = std::current_exception();
    }
    agree_on_errors(comm, error);
    stats.output_items = stats.exchange.items_received;
    return stats;
}

}  // namespace emflow::mpi
