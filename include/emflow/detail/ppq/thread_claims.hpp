// SPDX-License-Identifier: BSL-1.0
// emflow/detail/ppq/thread_claims.hpp: insertion heaps held by plain threads in a bulk phase, so
// that bulk_push without a thread id is safe from any std::thread.
//
// A thread outside OpenMP regions that is not a oneTBB worker -- a plain thread, or the external
// thread holding slot 0 of an arena -- has no id of its own (oneTBB reports slot 0 for every
// thread that has used it, in an arena or not). On its first id-less bulk_push of a phase it
// claims the lowest heap no other such thread holds, by a compare-and-swap on that heap's
// owner; the claim is cached in a thread_local slot keyed by a process-wide phase number (a
// cache hit costs one thread-local load and compare; a thread pushing into two queues finds its
// claim again by a scan). Native ids (explicit, OpenMP, oneTBB worker slots) pay a relaxed load
// of the owner: a heap held by another claiming thread is refused. Native pushers do not mark
// their heaps (a store on their path), so a claim cannot see them: claimed heaps must stay
// below the native ids in use at the same time -- as in an arena, whose external thread
// claims heap 0 while the workers use their slots from 1 on.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace emflow::detail::ppq {

class thread_claims {
public:
    //! No heap claimed by the calling thread in this phase.
    static constexpr unsigned none = ~0u;

    //! Claims over `heaps` insertion heaps.
    explicit thread_claims(unsigned heaps)
        : owners_(std::make_unique<std::atomic<std::thread::id>[]>(heaps)), heaps_(heaps) {
        free_all();
    }

    //! A new bulk phase: every heap is free (called between phases, by one thread).
    void begin_phase() {
        free_all();
        phase_ = next_phase().fetch_add(1) + 1;
    }
    //! The heap the calling thread claimed in this phase, if its cache says so, else none.
    unsigned cached() const {
        const cache_entry& c = cache();
        return c.phase == phase_ ? c.heap : none;
    }
    //! The heap of the calling thread: the one it holds, else the lowest free one; throws
    //! std::logic_error when every heap is held by another plain thread.
    unsigned claim() {
        const std::thread::id me = std::this_thread::get_id();
        unsigned got = none;
        for (unsigned i = 0; i < heaps_ && got == none; ++i)
            if (owners_[i].load(std::memory_order_relaxed) == me) got = i;
        for (unsigned i = 0; i < heaps_ && got == none; ++i) {
            std::thread::id free;
            if (owners_[i].compare_exchange_strong(free, me, std::memory_order_relaxed)) got = i;
        }
        if (got == none)
            throw std::logic_error(
                "emflow::parallel_priority_queue: more plain threads call bulk_push() without a "
                "thread id in one bulk phase than there are insertion heaps (num_threads = " +
                std::to_string(heaps_) + "); raise ppq_options.num_threads or pass thread ids");
        cache() = {phase_, got};
        return got;
    }
    //! Throws std::logic_error if heap i is held by a plain thread other than the caller.
    void check_native(unsigned i) const {
        const std::thread::id owner = owners_[i].load(std::memory_order_relaxed);
        if (owner != std::thread::id() && owner != std::this_thread::get_id())
            throw std::logic_error("emflow::parallel_priority_queue: thread id " +
                                   std::to_string(i) +
                                   " names the insertion heap of a plain thread that calls "
                                   "bulk_push() without an id in this bulk phase");
    }

private:
    void free_all() {
        for (unsigned i = 0; i < heaps_; ++i) owners_[i].store(std::thread::id());
    }
    struct cache_entry {
        std::uint64_t phase = 0;  // 0: no phase (phases are numbered from 1)
        unsigned heap = none;
    };
    static cache_entry& cache() {
        thread_local cache_entry c;
        return c;
    }
    static std::atomic<std::uint64_t>& next_phase() {
        static std::atomic<std::uint64_t> n{0};
        return n;
    }

    std::unique_ptr<std::atomic<std::thread::id>[]> owners_;
    unsigned heaps_;
    std::uint64_t phase_ = 0;  // written between phases only
};

}  // namespace emflow::detail::ppq
