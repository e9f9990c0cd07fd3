// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/sorter.hpp: push-fed sorter with a memory budget: a push node while its input
// arrives, a pull node (the merged, sorted stream) after push_stop(). Usable symmetrically
// anywhere in a graph; no split-up sorting node needed.
//
// Run formation overlaps reading (Figure 5 of the parallel pipelining paper): with async runs
// (the default), a full run buffer is sorted (in parallel in the shared arena, or sequentially)
// and written by a task while the next run fills the second buffer. Runs of trivially copyable
// items are sorted by the PPQ's block quicksort (ppq/block_quicksort.hpp, about 2x std::sort
// and tbb::parallel_sort on random keys: bench/sort), others (std::pair is not trivially
// copyable) by tbb::parallel_sort or std::sort. Runs go to disk and are merged by
// emflow/nodes/external_runs.hpp: prefetching by prediction, the parallel multiway merge in the
// arena (sequential with parallel_sort off), more passes only if the budget needs them. Pulling
// before the input ended waits (suspends) until push_stop() was processed.
//
// Memory (emflow/memory_budget.hpp): the run formation (two run buffers and the run writer) and
// the merge are two consumers of different phases. A sorter given memory_bytes uses them for
// each; an automatic one (0) forms runs in what its phase assigns it and what is spare then, and
// merges in one pass when the budget has room for it, prefetching up to
// external_runs::prefetch_blocks_per_run more blocks per run within the merge's share of its
// phase and what is spare (not assigned to the phase's other consumers). An input that
// makes one run only is sorted and kept in RAM (moved from the run formation's memory to the
// merge's), unless the merge's phase cannot hold it: then it goes to disk like any run. With async
// runs, an input that would fit in the whole run memory still makes two runs of half buffers,
// unless the caller states its length (sort_options::expected_items).
//
// The comparator is any strict weak ordering: cmp(a, b) is true if a comes first. Items are
// stored on disk as bytes (trivially destructible types, as in STXXL's containers).
//
//   sorter_node<pair_t, by_second> s(by_second{}, 256 << 20);   split(src, s) ... s | transform(f)
#pragma once

#include <emflow/external_memory.hpp>
#include <emflow/memory_budget.hpp>
#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>
#include <emflow/nodes/external_runs.hpp>

#include <emflow/algorithm/block_quicksort.hpp>
#include <emflow/requirements.hpp>

#include <oneapi/tbb/parallel_sort.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace emflow {

//! How a sorter forms its runs.
struct sort_options {
    bool async_runs = true;     //!< sort and write a run in a task while the next one fills
    bool parallel_sort = true;  //!< sort each run in parallel (else sequentially)
    //! The input's length if known (0: unknown). An input shorter than the whole run memory
    //! then fills one buffer instead of two halves: one run, kept in RAM.
    std::uint64_t expected_items = 0;
};

//! Push in, pull out sorter.
template <class T, class Cmp>
class sorter_node {
    static_assert(is_order_of_v<Cmp, T>,
                  "emflow::sorter<T>(cmp): cmp must be callable as cmp(const T&, const T&) -> bool "
                  "(std::less<> needs an operator< for T)");
    using runs_type = external_runs<T, Cmp>;

public:
    using value_type = T;  //!< element type

    //! A sorter by cmp using at most memory_bytes (run buffers, writer, merger); 0: as the
    //! run's budget assigns.
    sorter_node(Cmp cmp, std::size_t memory_bytes, sort_options opt = {})
        : cmp_(cmp), memory_(memory_bytes), opt_(opt), state_(std::make_unique<state>()) {}
    //! Moves the sorter with its runs.
    sorter_node(sorter_node&&) noexcept = default;
    //! Move-assigns the sorter with its runs.
    sorter_node& operator=(sorter_node&&) noexcept = default;

    //! Declares its memory (file comment), checks an explicit budget. Run buffers are
    //! allocated at the first push, merge buffers at the first pull. A sorter may be pushed into
    //! and pulled over several graphs run one after the other (an iteration's output is the next
    //! iteration's input): each start() rebinds it to the running graph and registers its waits
    //! there; reached twice in one graph (push and pull side), it places its runs in the lower
    //! phase and its merge in the higher one.
    void start(run_context& ctx) {
        const int level = ctx.memory().level();
        if (run_ != ctx.id()) {
            run_ = ctx.id();
            ctx_ = &ctx;
            ctx.register_wait_point(state_->mutex, state_->wait);
            declare_memory(ctx.memory(), level);
        } else if (runs_id_ != no_id && level != first_level_) {
            ctx.memory().move_to(runs_id_, std::min(level, first_level_));
            ctx.memory().move_to(merge_id_, std::max(level, first_level_));
        }
        if (started_) return;
        started_ = true;
        state_->runs = std::make_unique<runs_type>(cmp_);
    }

    // ---- push side ----
    //! Adds x.
    void push(const T& x) {
        if (run_capacity_ == 0) allocate_runs();
        state_->filling.push_back(x);
        if (state_->filling.size() == run_capacity_) form_run(false);
    }
    //! Adds n elements.
    void push_batch(const T* p, std::size_t n) {
        if (run_capacity_ == 0) allocate_runs();
        if (runs_id_ != no_id) ctx_->memory().count(runs_id_, n, n * sizeof(T));
        while (n > 0) {
            std::size_t k = std::min(n, run_capacity_ - state_->filling.size());
            state_->filling.insert(state_->filling.end(), p, p + k);
            p += k;
            n -= k;
            if (state_->filling.size() == run_capacity_) form_run(false);
        }
    }
    //! Ends the input: the last run is formed, then the sorted stream can be pulled.
    void push_stop() { form_run(true); }

    // ---- pull side ----
    //! True when every element was pulled (waits for the input to end first).
    bool empty() { return out_.exhausted() && !refill(); }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    sorter_node& operator++() { return *this += 1; }
    //! Merged elements buffered.
    std::size_t batch_length() { return empty() ? 0 : out_.length(); }
    //! The buffered merged elements.
    const T* batch_begin() { return out_.begin(); }
    //! Advances by n <= batch_length().
    sorter_node& operator+=(std::size_t n) {
        out_.advance(n);
        return *this;
    }
    //! Elements pushed so far.
    std::uint64_t pushed() const { return state_->pushed; }

private:
    static constexpr std::size_t no_id = ~std::size_t(0);

    //! Least memory of the run formation: the writer and runs of two blocks.
    std::size_t runs_minimum() const {
        return runs_type::writer_bytes() + (opt_.async_runs ? 2 : 1) * 2 * runs_type::block_bytes();
    }
    //! Least memory of the merge.
    static std::size_t merge_minimum() { return runs_type::merge_minimum(); }

    //! Declares the run formation (at level, unless the input already ended in an earlier
    //! graph) and the merge (one level higher until a second start() places it).
    void declare_memory(memory_plan& plan, int level) {
        ensure_external_memory();
        const bool explicit_budget = memory_ > 0;
        if (explicit_budget && memory_ < runs_minimum())
            throw std::invalid_argument("emflow: sorter memory budget of " +
                                        format_mib(memory_, false) + " is too small (at least " +
                                        format_mib(runs_minimum(), true) + ")");
        first_level_ = level;
        runs_id_ = no_id;
        if (!state_->input_done && run_capacity_ == 0) {
            runs_id_ = plan.declare(
                "sort runs",
                explicit_budget
                    ? memory_demand::fixed(memory_)
                    : memory_demand{runs_minimum(), unbounded_memory, 1, default_memory},
                {}, 1);
            ++level;
        }
        // The merge shares its phase with the next sort's run formation as an equal: with only
        // its minimum it would merge with one pass's blocks and wait for each run's next block,
        // which costs more than the smaller runs beside it (bench/memory/README.md, "the
        // merge's share", 25a8fc0). At its start it takes one pass and what it can use for
        // prefetching, within that share and what is spare (memory_plan::acquire).
        merge_id_ = plan.declare_at(
            level, "merge",
            explicit_budget ? memory_demand::fixed(memory_)
                            : memory_demand{merge_minimum(), unbounded_memory, 1, merge_minimum()},
            {}, 2);
    }

    //! Allocates the run buffers from the run formation's assignment and, if automatic, what
    //! its phase has spare (a merge beside it may use less than its share): two halves with
    //! async runs, unless the expected input fits in the whole (then overlapping would only
    //! split one run in RAM into two on disk).
    void allocate_runs() {
        memory_plan& plan = ctx_->memory();
        const std::size_t mem =
            plan.acquire(runs_id_, plan.assigned(runs_id_), memory_ > 0 ? 0 : plan.budget());
        const std::size_t room =
            std::max<std::size_t>(1, (mem - std::min(mem, runs_type::writer_bytes())) / sizeof(T));
        const bool fits = opt_.expected_items > 0 && opt_.expected_items < room;
        double_buffered_ = opt_.async_runs && !fits;
        run_capacity_ = std::max<std::size_t>(1, double_buffered_ ? room / 2 : room);
        state_->filling.reserve(run_capacity_);
        if (double_buffered_) state_->spare.reserve(run_capacity_);
    }

    struct state {
        std::vector<T> filling, spare;
        std::unique_ptr<runs_type> runs;
        std::mutex mutex;
        wait_point wait;
        std::vector<T> kept;   // the whole input as one sorted run, kept in RAM
        bool forming = false;  // a run task is under way
        bool input_done = false;
        std::uint64_t pushed = 0;
        std::uint64_t runs_formed = 0;
    };

    //! Hands the filled buffer to run formation; last: then the input is complete.
    void form_run(bool last) {
        state& s = *state_;
        s.pushed += s.filling.size();
        if (last && s.runs_formed == 0) {  // one run in all: sorted, and kept in RAM if it may
            std::swap(s.kept, s.filling);
            auto sort_kept = [this] {
                sort_run(state_->kept);
                finish_input(false);
            };
            if (opt_.async_runs)
                ctx_->spawn(sort_kept);
            else
                sort_kept();
            return;
        }
        ++s.runs_formed;
        if (!double_buffered_) {
            write_run(s.filling);
            if (last) finish_input();
            return;
        }
        {
            std::unique_lock<std::mutex> lock(s.mutex);
            s.wait.wait(lock, *ctx_, [&] { return !s.forming; });
            s.forming = true;
        }
        std::swap(s.filling, s.spare);
        ctx_->spawn([this, last] {
            state& st = *state_;
            try {
                write_run(st.spare);
                if (last) finish_input();
            } catch (...) {
                release_forming();
                throw;
            }
            release_forming();
        });
    }

    void release_forming() {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->forming = false;
        state_->wait.notify_all();
    }

    //! Sorts run and appends it as one sorted run; empties run.
    void write_run(std::vector<T>& run) {
        if (run.empty()) return;
        sort_run(run);
        state_->runs->add(run.data(), run.size());
        run.clear();
    }

    //! Sorts run by cmp (in parallel with parallel_sort).
    void sort_run(std::vector<T>& run) {
        T* first = run.data();
        T* last = first + run.size();
        if constexpr (std::is_trivially_copyable_v<T>) {
            if (opt_.parallel_sort)
                algorithm::parallel_block_quicksort(
                    first, last, cmp_, unsigned(tbb::this_task_arena::max_concurrency()));
            else
                algorithm::block_quicksort(first, last, cmp_);
        } else if (opt_.parallel_sort) {
            tbb::parallel_sort(first, last, cmp_);
        } else {
            std::sort(first, last, cmp_);
        }
    }

    //! The input is complete; release_runs: the run formation's memory is free (else a kept
    //! run still holds it, until the merge takes it over).
    void finish_input(bool release_runs = true) {
        std::vector<T>().swap(state_->filling);  // the run buffers go before merging starts
        std::vector<T>().swap(state_->spare);
        if (release_runs && runs_id_ != no_id) ctx_->memory().release(runs_id_);
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->input_done = true;
        state_->wait.notify_all();
    }

    bool refill() {
        state& s = *state_;
        if (!merging_) {
            if (merged_) return false;
            start_merge();
            if (!out_.exhausted()) {  // the kept run
                plan_count(out_.length());
                return true;
            }
        }
        const std::size_t n = in_ram_ ? 0 : s.runs->merge(out_.fill_area(), out_.capacity());
        out_.filled(n);
        plan_count(n);
        if (n == 0) {
            merging_ = false;
            s.runs.reset();  // frees the merge buffers and the runs' blocks
            out_.release();
            ctx_->memory().release(merge_id_);
        }
        return n > 0;
    }

    //! Waits for the input's end, then takes the merge's memory and prepares the merge.
    void start_merge() {
        state& s = *state_;
        {
            std::unique_lock<std::mutex> lock(s.mutex);
            s.wait.wait(lock, *ctx_, [&] { return s.input_done; });
        }
        memory_plan& plan = ctx_->memory();
        plan.expect(merge_id_, s.pushed * sizeof(T));
        if (!s.kept.empty()) {  // one run: the merge's memory holds it, or it goes to disk
            const std::size_t bytes = s.kept.size() * sizeof(T);
            if (runs_id_ != no_id) plan.release(runs_id_);
            if (plan.acquire(merge_id_, std::max(bytes, memory_)) >= bytes) {
                out_.adopt(std::move(s.kept));
                merging_ = merged_ = in_ram_ = true;
                return;
            }
            s.runs->add(s.kept.data(), s.kept.size());
            std::vector<T>().swap(s.kept);
        }
        std::size_t mem = memory_;
        if (mem == 0) {  // automatic: one pass over its runs, prefetching with what is spare
            mem = plan.acquire(merge_id_, std::max(s.runs->one_pass_bytes(), merge_minimum()),
                               s.runs->prefetch_bytes());
        } else {
            plan.acquire(merge_id_, mem);
        }
        s.runs->start_merge(
            mem, opt_.parallel_sort ? unsigned(tbb::this_task_arena::max_concurrency()) : 1u);
        out_.allocate(s.runs->chunk_items());
        merging_ = merged_ = true;
    }

    void plan_count(std::size_t n) { ctx_->memory().count(merge_id_, n, n * sizeof(T)); }

    //! Run formation memory of an automatic sorter in a run without a budget.
    static constexpr std::size_t default_memory = std::size_t(64) << 20;

    Cmp cmp_;
    std::size_t memory_;  // 0: automatic
    sort_options opt_;
    std::unique_ptr<state> state_;
    run_context* ctx_ = nullptr;
    std::uint64_t run_ = 0;  // the run (run_context::id) the sorter was last started in
    std::size_t runs_id_ = no_id, merge_id_ = no_id;
    int first_level_ = 0;
    bool started_ = false, merging_ = false, merged_ = false;
    bool in_ram_ = false;  // the input was one run, merged from RAM
    std::size_t run_capacity_ = 0;
    bool double_buffered_ = false;  // runs fill two half buffers, one formed while the other fills
    batch_buffer<T> out_;
};

//! A push-fed sorter of T by cmp within memory_bytes (0: as the run's budget assigns).
template <class T, class Cmp>
sorter_node<T, Cmp> sorter(Cmp cmp, std::size_t memory_bytes = 0, sort_options opt = {}) {
    return sorter_node<T, Cmp>(cmp, memory_bytes, opt);
}

}  // namespace emflow
