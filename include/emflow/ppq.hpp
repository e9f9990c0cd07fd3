// SPDX-License-Identifier: BSL-1.0
// emflow/ppq.hpp: the bulk-parallel external-memory priority queue (Bingmann, Keh, Sanders,
// SEA 2015, section 3) on STXXL's block manager and asynchronous I/O.
//
//   emflow::ppq_options cfg;
//   cfg.memory_bytes = 1ull << 30;
//   emflow::parallel_priority_queue<std::uint64_t, std::greater<>> pq(std::greater<>(), cfg);
//   pq.bulk_push_begin(n);
//   #pragma omp parallel for
//   for (...) pq.bulk_push(x);              // thread id from OpenMP or oneTBB
//   pq.bulk_push_end();
//   std::vector<std::uint64_t> out;
//   pq.bulk_pop(out, 100000);               // the 100000 smallest, in order
//
// Ordering is that of std::priority_queue: top() is the greatest item under Compare.
// Structure: one insertion heap per thread -> sorted internal arrays by level (merged when a
// level is full; push_sorted adds a run in pop order as an array directly) -> when RAM is
// exhausted, one parallel multiway merge of all internal arrays and the extract buffer into a new
// external array on disk -> external arrays by level, read through dynamic block prefetching
// into the extract buffer (for top/pop) or directly into bulk_pop's output. See the headers in
// emflow/ppq/ for each part.
//
// Threads: bulk_push (and limit_push) may be called concurrently with distinct thread ids;
// without an id, bulk_push takes the OpenMP thread number, the oneTBB arena slot of a worker,
// or else (a plain thread, or the external thread of an arena) a heap of its own for the bulk
// phase (detail/ppq/thread_claims.hpp: more such threads than heaps, or a native id naming one of
// their heaps, is a logic_error).
// Every other member is called by one thread at a time. Heavy work (sorting, merging) runs in
// num_threads OpenMP threads or a oneTBB arena (see ppq/parallel_algorithms.hpp).
// Overlap: a bulk_push outside an OpenMP region (a oneTBB task or a plain thread) that fills its
// insertion heap hands the heap to a oneTBB background task in the caller's arena and goes on
// with a fresh one; the task sorts the heap into an internal array (merging levels or flushing
// to disk as needed; these steps are serialized, and a thread waiting for its turn helps with
// the running step's merges). At most a few heaps are in flight, their RAM reserved from the
// budget when the first is handed over; when none is free the pusher sorts its heap itself.
// bulk_push_end, size(), stats() and the destructor wait for the background tasks.
// Inside an OpenMP region (whose team holds every core already) the pusher sorts its own heap.
//
// Errors: misuse (pop on empty, push inside a bulk phase, nested phases, a limit_push before
// the limit, a thread id out of range) throws std::logic_error / std::invalid_argument and leaves
// the queue unchanged. Any other exception -- from the comparator (also when thrown inside a
// parallel sort or merge: it is carried to the calling thread; from a background task it is
// rethrown by the next flushing bulk_push and by bulk_push_end), std::bad_alloc, or an
// stxxl::io_error such as a full disk -- leaves the queue *failed*: its contents are
// unspecified, every further member except the destructor throws std::logic_error, and the
// destructor waits for pending I/O and frees all RAM and disk blocks.
#pragma once

#include <emflow/algorithm/background_tasks.hpp>
#include <emflow/algorithm/cooperative_section.hpp>
#include <emflow/algorithm/external_arrays.hpp>
#include <emflow/algorithm/external_writer.hpp>
#include <emflow/algorithm/parallel_algorithms.hpp>
#include <emflow/detail/ppq/insertion_heaps.hpp>
#include <emflow/detail/ppq/internal_arrays.hpp>
#include <emflow/detail/ppq/thread_claims.hpp>
#include <emflow/external_memory.hpp>
#include <emflow/ppq/config.hpp>
#include <emflow/ppq/stats.hpp>
#include <emflow/requirements.hpp>

#include <omp.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace emflow {

//! The bulk-parallel external-memory priority queue: top() is the greatest item under Compare
//! (a min-queue takes std::greater), bulk phases push from many threads at once.
template <class T, class Compare = std::less<T>>
class parallel_priority_queue {
    static_assert(std::is_trivially_copyable_v<T>,
                  "emflow::parallel_priority_queue<T>: T must be trivially copyable (items are "
                  "written to disk as bytes)");
    static_assert(is_order_of_v<Compare, T>,
                  "emflow::parallel_priority_queue<T, Compare>: Compare must be callable as "
                  "cmp(const T&, const T&) -> bool; top() is the largest item by Compare, so a "
                  "min-queue takes std::greater<>");
    using order_type = algorithm::pop_order<Compare>;

public:
    using value_type = T;           //!< the item type
    using size_type = std::size_t;  //!< item counts

    //! Creates an empty queue; throws std::invalid_argument for an unusable configuration.
    explicit parallel_priority_queue(Compare cmp = Compare(), ppq_options cfg = ppq_options())
        : cmp_(cmp), order_{cmp}, cfg_(make_ppq_layout(cfg, sizeof(T))), workers_(cfg_.threads),
          single_(1), in_task_(algorithm::workers::in_caller_arena(cfg_.threads, &adding_)),
          heaps_(cfg_.threads, cmp), claims_(cfg_.threads), internal_(order_),
          external_(cfg_, order_, stats_), extract_(alloc_items(cfg_.extract_items)),
          limit_buf_(alloc_items(cfg_.extract_items)) {
        ensure_external_memory();
        for (unsigned i = 0; i < cfg_.threads; ++i) heaps_[i].items.reserve(cfg_.heap_items);
        note_memory();
    }
    parallel_priority_queue(const parallel_priority_queue&) = delete;
    parallel_priority_queue& operator=(const parallel_priority_queue&) = delete;
    //! Waits for background tasks, frees all RAM and disk blocks.
    ~parallel_priority_queue() { background_.wait(); }

    //! Number of items (in a bulk phase: after the background tasks ended).
    size_type size() const {
        background_.wait();
        return heaps_.size() + internal_.size() + (extract_end_ - extract_begin_) +
               external_.size() + (limit_end_ - limit_begin_);
    }
    //! True if there are no items.
    bool empty() const { return size() == 0; }
    //! The layout in effect: the options after defaults and rounding.
    const ppq_layout& layout() const { return cfg_; }

    //! Inserts x.
    void push(const T& x) {
        usable();
        expect(phase::normal, "push() inside a bulk or limit phase (use bulk_push/limit_push)");
        guarded([&] {
            heaps_.push(0, x);
            if (heaps_[0].items.size() >= cfg_.heap_items) {
                flush_heap(0, workers_);
                refresh_heaps();
            }
        });
    }
    //! The next item in pop order (the greatest under Compare).
    const T& top() {
        usable();
        expect(phase::normal, "top() inside a bulk or limit phase (use limit_top)");
        nonempty("top()");
        const T* t = nullptr;
        guarded([&] { t = &find_top().item(*this); });
        return *t;
    }
    //! Removes the next item in pop order.
    void pop() {
        usable();
        expect(phase::normal, "pop() inside a bulk or limit phase (use limit_pop)");
        nonempty("pop()");
        guarded([&] { remove(find_top()); });
    }

    //! Starts a bulk insertion of about approx_bulk_size items.
    void bulk_push_begin(size_type approx_bulk_size) {
        usable();
        expect(phase::normal, "bulk_push_begin() inside a bulk or limit phase");
        guarded([&] {
            external_.set_prefetch(false);
            // Larger bulks let the insertion heaps grow into free RAM: sorting beats heaps.
            const std::size_t per_heap = approx_bulk_size / cfg_.threads + 1;
            const std::size_t spare = free_internal_bytes() / 2 / cfg_.threads / sizeof(T);
            bulk_cap_ =
                std::clamp(per_heap + per_heap / 8, cfg_.heap_items, cfg_.heap_items + spare);
            heap_extra_bytes_ = cfg_.threads * (bulk_cap_ - cfg_.heap_items) * sizeof(T);
            background_.close();  // opened by the first pusher that hands a heap over
            for (unsigned i = 0; i < cfg_.threads; ++i) heaps_[i].items.reserve(bulk_cap_);
            claims_.begin_phase();
            phase_.store(phase::bulk, std::memory_order_release);
            note_memory();
        });
    }
    //! Inserts x in a bulk phase, from the thread with id thread_id < num_threads; threads
    //! with different ids may call this concurrently.
    void bulk_push(const T& x, unsigned thread_id) {
        check_bulk_push(thread_id);
        append(x, thread_id);
    }
    //! Inserts x in a bulk phase with the id of the calling OpenMP thread or oneTBB worker, or
    //! a heap of the calling thread's own (file comment, "Threads").
    void bulk_push(const T& x) { append(x, calling_thread_id()); }
    //! Inserts items[0, n) in a bulk phase, from the thread with id thread_id (as above).
    void bulk_push(const T* items, size_type n, unsigned thread_id) {
        check_bulk_push(thread_id);
        append(items, n, thread_id);
    }
    //! Inserts items[0, n) in a bulk phase with the id of the calling thread (as above).
    void bulk_push(const T* items, size_type n) { append(items, n, calling_thread_id()); }
    //! Ends the bulk phase: waits for the background tasks (rethrowing their first exception),
    //! then restores heap order or sorts the heaps into internal arrays.
    void bulk_push_end() {
        expect(phase::bulk, "bulk_push_end() without bulk_push_begin()");
        background_.wait();
        if (std::exception_ptr e = background_.take_error()) std::rethrow_exception(e);
        usable();
        guarded([&] {
            sort_heaps(cfg_.heap_items / 8);
            heap_extra_bytes_ = 0;
            phase_.store(phase::normal);
            external_.set_prefetch(true);  // hints for all arrays made during the bulk
            note_memory();
        });
    }

    //! Inserts the items of run, which must be in pop order (else std::invalid_argument, the
    //! queue unchanged), outside bulk and limit phases; takes over run's storage, whose capacity
    //! counts as the queue's RAM. A run of at least an eighth of an insertion heap becomes an
    //! internal array as it is, with no sort (for producers whose output is ordered already); a
    //! shorter one goes into the insertion heap.
    void push_sorted(std::vector<T>&& run) {
        usable();
        expect(phase::normal, "push_sorted() inside a bulk or limit phase");
        bool in_order = false;  // a comparator that throws here fails the queue, as anywhere
        guarded([&] { in_order = std::is_sorted(run.begin(), run.end(), order_); });
        if (!in_order)
            throw std::invalid_argument(
                "emflow::parallel_priority_queue: push_sorted() of a run not in pop order");
        if (run.size() < std::max<std::size_t>(cfg_.heap_items / 8, 1)) {
            for (const T& x : run) push(x);
            std::vector<T>().swap(run);
            return;
        }
        guarded([&] {
            std::vector<T> items;
            items.swap(run);
            add_internal(std::move(items), workers_);
            ++stats_.sorted_runs;
        });
    }

    //! Replaces out's contents by the next min(max_size, size()) items, in pop order; out's
    //! capacity grows to at most max_size (if it was not larger).
    void bulk_pop(std::vector<T>& out, size_type max_size) {
        usable();
        expect(phase::normal, "bulk_pop() inside a bulk or limit phase");
        out.clear();
        guarded([&] { extract_bulk(out, max_size, nullptr); });
    }
    //! Replaces out's contents by the next items (at most max_size) that come strictly before
    //! limit in pop order, in pop order (capacity as bulk_pop); returns true if no such item
    //! remains in the queue.
    bool bulk_pop_limit(std::vector<T>& out, const T& limit, size_type max_size = SIZE_MAX) {
        usable();
        expect(phase::normal, "bulk_pop_limit() inside a bulk or limit phase");
        out.clear();
        bool done = false;
        guarded([&] {
            extract_bulk(out, max_size, &limit);
            done = size() == 0 || !order_(find_top().item(*this), limit);
        });
        return done;
    }

    //! Starts a limit phase: limit_top/limit_pop extract the items before limit in batches of
    //! bulk_size; limit_push inserts items that do not come before limit.
    void limit_begin(const T& limit, size_type bulk_size) {
        usable();
        expect(phase::normal, "limit_begin() inside a bulk or limit phase");
        limit_ = limit;
        limit_bulk_ = std::clamp<std::size_t>(bulk_size, 1, cfg_.extract_items);
        limit_begin_ = limit_end_ = 0;
        limit_exhausted_ = false;
        phase_.store(phase::limit, std::memory_order_release);
    }
    //! The next item of the limit phase: the items before the limit in pop order; once those
    //! are exhausted, the top of the queue (which then does not come before the limit).
    const T& limit_top() {
        usable();
        expect(phase::limit, "limit_top() outside limit_begin()/limit_end()");
        const T* t = nullptr;
        guarded([&] { t = limit_next(); });
        if (!t)
            throw std::logic_error(
                "emflow::parallel_priority_queue: limit_top() on an "
                "empty queue");
        return *t;
    }
    //! Removes limit_top().
    void limit_pop() {
        usable();
        expect(phase::limit, "limit_pop() outside limit_begin()/limit_end()");
        guarded([&] {
            if (!limit_next())
                throw std::logic_error(
                    "emflow::parallel_priority_queue: limit_pop() on an "
                    "empty queue");
            if (limit_begin_ < limit_end_)
                ++limit_begin_;
            else
                remove(find_top());
        });
    }
    //! Inserts x, which must not come before the limit, in a limit phase; threads with
    //! different ids may call this concurrently with each other (not with limit_top/pop).
    void limit_push(const T& x, unsigned thread_id = 0) {
        if (phase_.load(std::memory_order_relaxed) != phase::limit)
            throw std::logic_error(
                "emflow::parallel_priority_queue: limit_push() outside "
                "limit_begin()/limit_end()");
        if (thread_id >= cfg_.threads) throw bad_thread_id(thread_id);
        if (order_(x, limit_))
            throw std::invalid_argument(
                "emflow::parallel_priority_queue: limit_push() of an "
                "item that comes before the limit");
        usable();
        guarded([&] {
            auto& v = heaps_[thread_id].items;
            v.push_back(x);
            std::push_heap(v.begin(), v.end(), cmp_);  // the tree is refreshed by limit_next()
            if (v.size() >= cfg_.heap_items) adding_.run([&] { flush_heap(thread_id, single_); });
        });
    }
    //! Ends the limit phase; unextracted items of the current batch stay in the queue.
    void limit_end() {
        usable();
        expect(phase::limit, "limit_end() without limit_begin()");
        guarded([&] {
            if (limit_begin_ < limit_end_) {
                // room first: the copy must not exist while a flush runs
                if (internal_.bytes() + (limit_end_ - limit_begin_) * sizeof(T) > internal_limit())
                    flush_to_external(workers_);
                std::vector<T> rest(limit_buf_.get() + limit_begin_, limit_buf_.get() + limit_end_);
                limit_begin_ = limit_end_ = 0;
                add_internal(std::move(rest), workers_);
            }
            refresh_heaps();
            phase_.store(phase::normal);
        });
    }

    //! Counters and the current shape of the queue (in a bulk phase: after the background
    //! tasks ended).
    ppq_stats stats() const {
        background_.wait();
        ppq_stats s = stats_;
        s.items_on_disk = external_.items_on_disk();
        s.items_in_ram = size() - s.items_on_disk;
        s.internal_arrays_per_level.assign(internal_.levels(), 0);
        for (unsigned l = 0; l < internal_.levels(); ++l)
            s.internal_arrays_per_level[l] = internal_.on_level(l);
        s.external_arrays_per_level = external_.per_level();
        return s;
    }

private:
    enum class phase { normal, bulk, limit };
    enum class source { heap, internal, extract };
    struct top_ref {
        source src;
        std::uint32_t index;
        const T& item(const parallel_priority_queue& q) const {
            switch (src) {
                case source::heap:
                    return q.heaps_.front(index);
                case source::internal:
                    return q.internal_.head(index);
                default:
                    return q.extract_[q.extract_begin_];
            }
        }
    };
    struct free_deleter {
        void operator()(T* p) const { std::free(p); }
    };
    using buffer = std::unique_ptr<T[], free_deleter>;

    static buffer alloc_items(std::size_t n) {
        T* p = static_cast<T*>(std::malloc(std::max<std::size_t>(n, 1) * sizeof(T)));
        if (!p) throw std::bad_alloc();
        return buffer(p);
    }

    // ---- checks ----
    void usable() const {
        if (failed_.load(std::memory_order_relaxed))
            throw std::logic_error(
                "emflow::parallel_priority_queue: the queue is unusable "
                "after an earlier exception (see ppq.hpp)");
    }
    void expect(phase p, const char* what) const {
        if (phase_.load(std::memory_order_relaxed) != p)
            throw std::logic_error(std::string("emflow::parallel_priority_queue: ") + what);
    }
    void nonempty(const char* what) const {
        if (empty())
            throw std::logic_error(std::string("emflow::parallel_priority_queue: ") + what +
                                   " on an empty queue");
    }
    //! A bulk_push is allowed: inside a bulk phase, with a valid thread id (not the heap of a
    //! plain thread pushing without an id).
    void check_bulk_push(unsigned thread_id) const {
        check_bulk_phase();
        check_native_id(thread_id);
    }
    void check_native_id(unsigned thread_id) const {
        if (thread_id >= cfg_.threads) throw bad_thread_id(thread_id);
        claims_.check_native(thread_id);
    }
    void check_bulk_phase() const {
        if (phase_.load(std::memory_order_relaxed) != phase::bulk)
            throw std::logic_error(
                "emflow::parallel_priority_queue: bulk_push() outside "
                "bulk_push_begin()/bulk_push_end()");
    }
    std::logic_error bad_thread_id(unsigned id) const {
        return std::logic_error("emflow::parallel_priority_queue: thread id " + std::to_string(id) +
                                " is not below num_threads = " + std::to_string(cfg_.threads));
    }
    //! Runs f; any exception marks the queue failed before it propagates.
    template <class F>
    void guarded(F&& f) {
        try {
            f();
        } catch (...) {
            failed_.store(true);
            throw;
        }
    }
    //! The heap of an id-less bulk_push, after the checks of check_bulk_push.
    unsigned calling_thread_id() {
        check_bulk_phase();
        unsigned id = claims_.cached();
        if (id != detail::ppq::thread_claims::none) return id;
        if (omp_in_parallel()) {
            id = unsigned(omp_get_thread_num());
        } else if (int slot = tbb::this_task_arena::current_thread_index(); slot > 0) {
            id = unsigned(slot);  // a oneTBB worker (slot 0 is reserved for external threads)
        } else {
            // Slot 0 or none: the external thread of an arena, or a plain thread (oneTBB
            // reports slot 0 for any thread that has used it, in an arena or not)
            return claims_.claim();
        }
        check_native_id(id);
        return id;
    }

    // ---- memory ----
    std::size_t used_bytes() const {
        return cfg_.fixed_bytes + internal_.bytes() + external_.ram_bytes() + heap_extra_bytes_;
    }
    //! Updates the peak: the read buffers' own peak (they change inside merges) counts with
    //! the current size of everything else.
    void note_memory() {
        const std::size_t others = used_bytes() - external_.ram_bytes();
        stats_.peak_memory_bytes =
            std::max(stats_.peak_memory_bytes, others + external_.take_peak_ram_bytes());
    }
    //! RAM the internal arrays may occupy: the pool minus read buffers (including those of the
    //! array the next flush creates) and the heaps' growth in a bulk phase.
    std::size_t internal_limit() const {
        std::size_t reserved = external_.reserved_bytes(external_.count() + 1) + heap_extra_bytes_;
        return cfg_.pool_bytes > reserved ? cfg_.pool_bytes - reserved : 0;
    }
    std::size_t free_internal_bytes() const {
        return internal_limit() > internal_.bytes() ? internal_limit() - internal_.bytes() : 0;
    }

    // ---- insertion side ----
    //! Appends x to heap i in a bulk phase (after the checks).
    void append(const T& x, unsigned i) {
        auto& v = heaps_[i].items;
        v.push_back(x);
        if (v.size() >= bulk_cap_) bulk_flush_heap(i);
    }
    //! Appends items[0, n) to heap i in a bulk phase (after the checks).
    void append(const T* items, size_type n, unsigned i) {
        auto& v = heaps_[i].items;
        while (n > 0) {
            const std::size_t k = std::min(n, bulk_cap_ - std::min(bulk_cap_, v.size()));
            v.insert(v.end(), items, items + k);
            items += k;
            n -= k;
            if (v.size() >= bulk_cap_) bulk_flush_heap(i);
        }
    }
    //! Sorts heap i into an internal array (threads for the sort) and gives it a fresh heap.
    void flush_heap(unsigned i, algorithm::workers& w) {
        std::vector<T> items;
        items.swap(heaps_[i].items);
        heaps_[i].items.reserve(cfg_.heap_items);
        // the tree is refreshed by the single-threaded caller (refresh_heaps)
        algorithm::parallel_sort(items.data(), items.data() + items.size(), order_, w);
        add_internal(std::move(items), workers_);
    }
    //! Heap i is full in a bulk phase: hands it to a background task, or sorts it here.
    void bulk_flush_heap(unsigned i) {
        if (failed_.load(std::memory_order_acquire)) {  // another flush failed: its error
            if (std::exception_ptr e = background_.error()) std::rethrow_exception(e);
            usable();
        }
        try {
            std::vector<T> items;
            items.swap(heaps_[i].items);
            const bool in_omp = omp_in_parallel();
            if (!in_omp && !background_.opened()) adding_.run([&] { reserve_in_flight(); });
            if (!in_omp && background_.take_slot()) {
                heaps_[i].items.reserve(bulk_cap_);
                spawn_background(std::move(items));
                return;
            }
            // The pusher sorts its heap itself; inside a oneTBB task isolated, so that waiting
            // for its parallel sort never picks up a producer or an insertion task. Waiting for
            // its turn to add, it helps the running add (often a flush to disk).
            auto& w = in_omp ? workers_ : in_task_;
            tbb::this_task_arena::isolate([&] {
                algorithm::parallel_sort(items.data(), items.data() + items.size(), order_,
                                         in_omp ? single_ : in_task_);
                adding_.run([&] {
                    // the run still occupies the heap's reserved RAM until it is added (a flush
                    // may come first); only then the heap gets new RAM
                    add_internal(std::move(items), w);
                    heaps_[i].items.reserve(bulk_cap_);
                });
            });
        } catch (...) {
            // Kept before the queue is marked failed: a pusher that sees the mark rethrows this
            // error, so that the caller of a run with several pushers gets the cause.
            background_.keep_error(std::current_exception());
            failed_.store(true, std::memory_order_release);
            throw;
        }
    }

    // ---- background insertion tasks ----
    //! Reserves RAM for the heaps that may be in flight in this bulk phase (once, in a turn of
    //! adding_; not at bulk_push_begin, so OpenMP pushers, which never hand heaps over, keep
    //! the pool): up to four per thread within a quarter of the pool and the free part of it
    //! (fewer made the producer wait for flushes: tfp_overlap); the first uses the sort scratch
    //! heap of fixed_bytes.
    void reserve_in_flight() {
        if (background_.opened()) return;
        const std::size_t run_bytes = bulk_cap_ * sizeof(T), scratch = cfg_.heap_items * sizeof(T);
        const std::size_t room = std::min(cfg_.pool_bytes / 4, free_internal_bytes()) + scratch;
        const auto slots = unsigned(std::min<std::size_t>(4 * cfg_.threads, room / run_bytes));
        if (slots > 0) heap_extra_bytes_ += slots * run_bytes - scratch;
        note_memory();
        background_.open(slots);
    }
    //! Sorts `items` and adds them as an internal array in a background task.
    void spawn_background(std::vector<T>&& items) {
        auto run = std::make_shared<std::vector<T>>(std::move(items));
        background_.run(
            [this, run] {
                struct release {  // the run's RAM is free before its slot is
                    std::vector<T>& v;
                    ~release() { std::vector<T>().swap(v); }
                } r{*run};
                if (failed_.load()) return;
                algorithm::parallel_sort(run->data(), run->data() + run->size(), order_, in_task_);
                adding_.run([&] {
                    if (failed_.load()) return;
                    ++stats_.background_sorts;
                    add_internal(std::move(*run), in_task_);
                });
            },
            [this] { failed_.store(true); });
    }
    //! Heaps with at least min_sort items are sorted into internal arrays (in parallel, one
    //! thread per heap), the others get heap order back. The runs keep counting as heap RAM
    //! until each is added; the sorted heaps get new RAM after that.
    void sort_heaps(std::size_t min_sort) {
        const unsigned p = cfg_.threads;
        std::vector<std::vector<T>> runs(p);
        for (unsigned i = 0; i < p; ++i)
            if (heaps_[i].items.size() >= std::max<std::size_t>(min_sort, 1))
                runs[i].swap(heaps_[i].items);
        std::size_t nonempty = 0;
        for (auto& r : runs) nonempty += !r.empty();
        if (nonempty == 1) {  // one heap: a parallel sort of it
            for (auto& r : runs)
                if (!r.empty())
                    algorithm::parallel_sort(r.data(), r.data() + r.size(), order_, workers_);
        } else if (nonempty > 1) {  // several: one thread per heap
            workers_.for_each(p, [&](std::size_t i) {
                auto& v = runs[i];
                algorithm::parallel_sort(v.data(), v.data() + v.size(), order_, single_);
            });
        }
        for (unsigned i = 0; i < p; ++i) {  // shrink the unsorted heaps, one at a time
            auto& v = heaps_[i].items;
            if (runs[i].empty() && v.capacity() > cfg_.heap_items) {
                std::vector<T> fresh;
                fresh.reserve(cfg_.heap_items);
                fresh.insert(fresh.end(), v.begin(), v.end());
                v.swap(fresh);
            }
        }
        for (unsigned i = 0; i < p; ++i) {
            std::size_t held = 0;  // what the heaps and the runs not yet added hold
            for (unsigned j = 0; j < p; ++j)
                held +=
                    (heaps_[j].items.capacity() + (j >= i ? runs[j].capacity() : 0)) * sizeof(T);
            const std::size_t fixed_heaps = p * cfg_.heap_items * sizeof(T);
            heap_extra_bytes_ = held > fixed_heaps ? held - fixed_heaps : 0;
            add_internal(std::move(runs[i]), workers_);
        }
        heap_extra_bytes_ = 0;
        for (unsigned i = 0; i < p; ++i) {
            auto& v = heaps_[i].items;
            v.reserve(cfg_.heap_items);
            std::make_heap(v.begin(), v.end(), cmp_);
            heaps_.changed(i);
        }
        note_memory();
    }
    //! After limit pushes or a heap flush: the heaps are in order but the tree is stale.
    void refresh_heaps() {
        for (unsigned i = 0; i < cfg_.threads; ++i) heaps_.changed(i);
    }
    //! Adds a sorted run on level 0; merges full levels, or flushes to disk when RAM is out
    //! (with the run itself if it would not fit in RAM even after the flush).
    void add_internal(std::vector<T>&& run, algorithm::workers& w) {
        if (run.empty()) return;
        const std::size_t bytes = run.capacity() * sizeof(T);
        if (internal_.bytes() + bytes > internal_limit()) {
            // after the flush: no internal arrays, one more external array
            const std::size_t reserved =
                external_.reserved_bytes(external_.count() + 2) + heap_extra_bytes_;
            if (reserved + bytes > cfg_.pool_bytes) {
                flush_to_external(w, &run);
                return;
            }
            flush_to_external(w);
        }
        internal_.add(std::move(run), 0);
        for (unsigned l = 0; l < internal_.levels(); ++l) {
            if (internal_.on_level(l) < cfg_.max_per_level) continue;
            const std::size_t merged = internal_.items_on_level(l) * sizeof(T);
            if (merged > free_internal_bytes()) break;
            stats_.peak_memory_bytes = std::max(stats_.peak_memory_bytes, used_bytes() + merged);
            internal_.merge_level(l, w);
            ++stats_.internal_merges;
        }
        note_memory();
        bool full = false;  // a full level that RAM could not merge
        for (unsigned l = 0; l < internal_.levels() && !full; ++l)
            full = internal_.on_level(l) >= 2 * cfg_.max_per_level;
        if (full) flush_to_external(w);
    }
    //! One parallel multiway merge of all internal arrays, the extract buffer and *run (a
    //! sorted run not in the queue yet, if given) into a new external array.
    void flush_to_external(algorithm::workers& w, std::vector<T>* run = nullptr) {
        // Read buffers may take half of the pool, and in a bulk phase no more than its heaps'
        // growth leaves (that growth ends with the phase; halving the rest instead forced a whole
        // extra merge pass over the data at 4 GiB with 1 GiB).
        const std::size_t unheld = cfg_.pool_bytes - std::min(cfg_.pool_bytes, heap_extra_bytes_);
        const std::size_t pool = std::min(cfg_.pool_bytes, 2 * unheld);
        for (int l; (l = external_.level_to_merge(pool)) >= 0;)
            external_.merge_level(unsigned(l), w, next_disk_);
        std::vector<algorithm::sequence<T>> seqs;
        std::vector<std::size_t> owners;
        internal_.collect(seqs, owners);
        seqs.emplace_back(extract_.get() + extract_begin_, extract_.get() + extract_end_);
        if (run) seqs.emplace_back(run->data(), run->data() + run->size());
        std::size_t left =
            internal_.size() + (extract_end_ - extract_begin_) + (run ? run->size() : 0);
        if (left == 0) return;
        algorithm::external_writer<T> out(cfg_, 0, next_disk_);
        while (left) {
            std::size_t room;
            T* dst = out.space(room);
            std::size_t n = algorithm::multiway_merge(seqs, dst, std::min(room, left), order_, w);
            out.commit(n);
            left -= n;
        }
        auto arr = out.finish();
        stats_.bytes_written += out.bytes_written();
        for (std::size_t k = 0; k < owners.size(); ++k)
            internal_.consumed(owners[k], seqs[k].first);
        internal_.compact();
        if (run) std::vector<T>().swap(*run);
        extract_begin_ = extract_end_ = 0;
        external_.add(std::move(arr));
        ++stats_.flushes;
        note_memory();
    }

    // ---- extraction side ----
    //! Refills the extract buffer from the external arrays if it is empty.
    void ensure_extract() {
        if (extract_begin_ < extract_end_ || external_.empty()) return;
        extract_begin_ = extract_end_ = 0;
        while (extract_end_ < cfg_.extract_items && !external_.empty())
            extract_end_ += external_.merge_round(extract_.get() + extract_end_,
                                                  cfg_.extract_items - extract_end_, workers_);
        ++stats_.extract_refills;
        note_memory();
    }
    //! The source of the next item (the queue must not be empty).
    top_ref find_top() {
        ensure_extract();
        top_ref best{source::extract, 0};
        const T* b = extract_begin_ < extract_end_ ? &extract_[extract_begin_] : nullptr;
        std::uint32_t h = heaps_.winner();
        if (h != algorithm::no_player && !heaps_[h].items.empty() &&
            (!b || cmp_(*b, heaps_.front(h)))) {
            best = {source::heap, h};
            b = &heaps_.front(h);
        }
        std::uint32_t i = internal_.winner();
        if (i != algorithm::no_player && internal_.arrays()[i].size() &&
            (!b || order_(internal_.head(i), *b))) {
            best = {source::internal, i};
            b = &internal_.head(i);
        }
        return best;
    }
    void remove(const top_ref& t) {
        switch (t.src) {
            case source::heap:
                heaps_.pop(t.index);
                break;
            case source::internal:
                internal_.pop(t.index);
                break;
            default:
                ++extract_begin_;
        }
    }
    //! Appends up to max items (before *user_limit, if given) to out, in pop order.
    void extract_bulk(std::vector<T>& out, std::size_t max, const T* user_limit) {
        if (max < 1024) {  // small bulks: single pops are cheaper than sorting the heaps
            out.reserve(max);
            while (out.size() < max && !empty()) {
                top_ref t = find_top();
                const T& x = t.item(*this);
                if (user_limit && !order_(x, *user_limit)) break;
                out.push_back(x);
                remove(t);
            }
            return;
        }
        sort_heaps(1);
        std::vector<algorithm::sequence<T>> seqs;
        std::vector<std::size_t> owners;
        while (out.size() < max) {
            ensure_extract();
            seqs.clear();
            owners.clear();
            internal_.collect(seqs, owners);
            seqs.emplace_back(extract_.get() + extract_begin_, extract_.get() + extract_end_);
            // Nothing may pass the last item of the extract buffer while external items
            // remain: they all come after it.
            const T* cut = extract_begin_ < extract_end_ && !external_.empty()
                               ? &extract_[extract_end_ - 1]
                               : nullptr;
            for (auto& s : seqs) {
                if (cut) s.second = std::upper_bound(s.first, s.second, *cut, order_);
                if (user_limit) s.second = std::lower_bound(s.first, s.second, *user_limit, order_);
            }
            std::size_t avail = 0;
            for (auto& s : seqs) avail += std::size_t(s.second - s.first);
            const std::size_t want = std::min(avail, max - out.size());
            if (want == 0) break;
            std::size_t old = out.size();
            // doubles as resize would, but never past max: a caller sizes its budget by max
            if (out.capacity() < old + want)
                out.reserve(std::min(max, std::max(old + want, 2 * out.capacity())));
            out.resize(old + want);
            algorithm::multiway_merge(seqs, out.data() + old, want, order_, workers_);
            for (std::size_t k = 0; k < owners.size(); ++k)
                internal_.consumed(owners[k], seqs[k].first);
            extract_begin_ = std::size_t(seqs.back().first - extract_.get());
            if (extract_begin_ < extract_end_ || external_.empty()) break;  // limit or rank hit
        }
        internal_.compact();
        note_memory();
    }
    //! The current item of a limit phase, refilling the batch; nullptr if the queue is empty.
    const T* limit_next() {
        refresh_heaps();  // limit pushes may have changed any heap
        if (limit_begin_ == limit_end_ && !limit_exhausted_) {
            std::vector<T> batch;
            extract_bulk(batch, limit_bulk_, &limit_);
            // limit pushes never come before the limit: once no such item is left, none returns
            limit_exhausted_ = batch.empty();
            std::copy(batch.begin(), batch.end(), limit_buf_.get());
            limit_begin_ = 0;
            limit_end_ = batch.size();
        }
        if (limit_begin_ < limit_end_) return &limit_buf_[limit_begin_];
        if (size() == 0) return nullptr;
        refresh_heaps();
        return &find_top().item(*this);
    }

    Compare cmp_;
    order_type order_;
    ppq_layout cfg_;
    ppq_stats stats_;
    algorithm::workers workers_;             // the arena of parallel sorts and merges
    algorithm::workers single_;              // sorting inside a pushing thread
    algorithm::cooperative_section adding_;  // adding internal arrays during bulk/limit pushes
    algorithm::workers in_task_;  // sorts and merges inside oneTBB tasks (merges shared with
                                  // the threads waiting for adding_)
    detail::ppq::insertion_heaps<T, Compare> heaps_;
    detail::ppq::thread_claims claims_;  // heaps of plain threads pushing without an id
    detail::ppq::internal_arrays<T, order_type> internal_;
    algorithm::external_arrays<T, order_type> external_;
    buffer extract_;  // items [extract_begin_, extract_end_) come before every external item
    std::size_t extract_begin_ = 0, extract_end_ = 0;
    buffer limit_buf_;  // the current batch of a limit phase
    std::size_t limit_begin_ = 0, limit_end_ = 0;
    T limit_{};
    std::size_t limit_bulk_ = 0;
    bool limit_exhausted_ = false;  // no item before the limit is left in this limit phase
    std::atomic<phase> phase_{phase::normal};
    std::atomic<bool> failed_{false};
    std::size_t bulk_cap_ = 0;
    std::size_t heap_extra_bytes_ = 0;  // heap growth and in-flight heaps of a bulk phase
    unsigned next_disk_ = 0;
    mutable algorithm::background_tasks background_;  // of the bulk phase (waited for by const
                                                      // readers, too)
};

}  // namespace emflow
