// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/distributed_ppq.hpp: the bulk-parallel priority queue across ranks. Every rank holds
// a parallel_priority_queue (ppq.hpp) with the items it owns (owner(item) -> rank); every
// operation is collective.
//
// * bulk_push(src): each rank's items go through an exchange (exchange.hpp) to their owners,
//   which insert them in one bulk phase (bulk_push_from: receiving overlaps insertion).
// * bulk_pop_limit(out, limit): each rank pops its own items before limit; the result says
//   whether any rank still has items before it.
// * bulk_pop(out, k): the globally next k items in pop order, each rank getting those it owns.
//   Distributed selection, no rank gathers items: each rank pops its k first items as
//   candidates (the global next k are among them); rounds of weighted-median pivots (one per
//   rank, gathered) narrow every rank's undecided candidate range until exactly k are chosen;
//   the rest go back into the local queue. Ties are broken by (rank, position), so equal items
//   are counted exactly. About log(p k) rounds of an allgather of p items and an allreduce.
// * size() and empty(): reductions of the local sizes.
// Errors: each operation ends with agree_on_errors() (agree.hpp): every rank throws if any failed.
//
//   emflow::mpi::distributed_ppq<msg, later> q(world, [p](const msg& m) { return int(m.target % p);
//   }); q.bulk_push(streamify(initial)); while (!q.empty()) { q.bulk_pop(bulk, k); ...
//   q.bulk_push(streamify(generated)); }
#pragma once

#include <emflow/mpi/agree.hpp>
#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/exchange.hpp>
#include <emflow/nodes/pq_push.hpp>
#include <emflow/ppq.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

namespace emflow::mpi {

//! A parallel_priority_queue per rank, items placed by owner(item); see the file comment.
template <class T, class Compare, class Owner>
class distributed_ppq {
public:
    using value_type = T;  //!< item type

    //! Collective: an empty queue on every rank of comm (ppq configuration per rank).
    distributed_ppq(const communicator& comm, Owner owner, Compare cmp = Compare(),
                    ppq_options cfg = ppq_options(), exchange_options xopt = exchange_options())
        : comm_(comm.duplicate()), owner_(std::move(owner)), cmp_(cmp), local_(cmp, cfg),
          xopt_(xopt) {}

    //! Collective: every rank's items of src (a pull node) into their owners' queues.
    template <class Src>
    void bulk_push(Src&& src) {
        std::exception_ptr error;
        try {
            exchange<T> x(comm_, xopt_);
            bulk_push_from(local_, std::size_t(1) << 20, route(std::forward<Src>(src), x, owner_));
        } catch (...) {
            error = std::current_exception();
        }
        agree_on_errors(comm_, error);
    }

    //! Collective: replaces out by this rank's items before limit (in pop order); returns true
    //! if no rank has items before limit left.
    bool bulk_pop_limit(std::vector<T>& out, const T& limit) {
        bool done = false;
        agree_on_errors(comm_, guarded([&] { done = local_.bulk_pop_limit(out, limit); }));
        return comm_.allreduce_sum(done ? 0 : 1) == 0;
    }

    //! Collective: replaces out by this rank's share of the globally next k items (in pop order).
    void bulk_pop(std::vector<T>& out, std::size_t k) {
        agree_on_errors(comm_, guarded([&] { local_.bulk_pop(out, k); }));
        std::size_t keep = select(out, k);
        agree_on_errors(comm_, guarded([&] {
                            if (keep == out.size()) return;
                            local_.bulk_push_begin(out.size() - keep);
                            local_.bulk_push(out.data() + keep, out.size() - keep);
                            local_.bulk_push_end();
                        }));
        out.resize(keep);
    }

    //! Collective: items in all ranks' queues.
    std::uint64_t size() const { return comm_.allreduce_sum(local_.size()); }
    //! Collective: true if every rank's queue is empty.
    bool empty() const { return size() == 0; }

    //! This rank's queue.
    parallel_priority_queue<T, Compare>& local() { return local_; }

private:
    //! A candidate and where it is: distinct even when items are equal.
    struct tagged {
        T item;
        std::int64_t rank;
        std::int64_t pos;
    };

    template <class F>
    static std::exception_ptr guarded(F&& f) {
        try {
            f();
        } catch (...) {
            return std::current_exception();
        }
        return nullptr;
    }

    //! True if a pops before b (the queue pops the greatest under Compare first), ties by place.
    bool before(const tagged& a, const tagged& b) const {
        if (cmp_(b.item, a.item)) return true;
        if (cmp_(a.item, b.item)) return false;
        return a.rank != b.rank ? a.rank < b.rank : a.pos < b.pos;
    }

    //! How many of this rank's candidates (its first items, in pop order) are among the global
    //! first k: distributed selection (file comment).
    std::size_t select(const std::vector<T>& cand, std::size_t k) {
        const std::int64_t self = comm_.rank();
        std::size_t lo = 0, hi = cand.size();  // [0, lo) chosen, [hi, end) rejected
        std::uint64_t need = std::min<std::uint64_t>(k, comm_.allreduce_sum(cand.size()));
        auto at = [&](std::size_t i) { return tagged{cand[i], self, std::int64_t(i)}; };
        struct proposal {
            tagged pivot;
            std::uint64_t weight;  // undecided candidates of the proposing rank; 0: none
        };
        while (need > 0) {
            proposal mine{{}, hi - lo};
            if (hi > lo) mine.pivot = at(lo + (hi - lo - 1) / 2);
            std::vector<proposal> all = comm_.allgather(mine);
            std::vector<proposal> live;
            std::uint64_t total = 0;
            for (const auto& pr : all)
                if (pr.weight) {
                    live.push_back(pr);
                    total += pr.weight;
                }
            if (total == need) {  // everything undecided is in
                lo = hi;
                break;
            }
            std::sort(live.begin(), live.end(), [&](const proposal& a, const proposal& b) {
                return before(a.pivot, b.pivot);
            });
            std::uint64_t acc = 0;
            const tagged* pivot = nullptr;
            for (const auto& pr : live) {
                acc += pr.weight;
                pivot = &pr.pivot;
                if (2 * acc >= total) break;
            }
            // This rank's undecided candidates before the pivot, and up to it (one more if the
            // pivot is its own).
            auto first = cand.begin() + std::ptrdiff_t(lo),
                 last = cand.begin() + std::ptrdiff_t(hi);
            std::size_t lt = std::size_t(
                std::partition_point(
                    first, last,
                    [&](const T& x) { return before(at(std::size_t(&x - cand.data())), *pivot); }) -
                first);
            std::size_t le = lt + (pivot->rank == self && lo + lt < hi ? 1 : 0);
            std::uint64_t global_le = comm_.allreduce_sum(le);
            if (global_le <= need) {
                lo += le;
                need -= global_le;
            } else {
                hi = lo + lt;
            }
        }
        return lo;
    }

    communicator comm_;
    Owner owner_;
    Compare cmp_;
    parallel_priority_queue<T, Compare> local_;
    exchange_options xopt_;
};

}  // namespace emflow::mpi
