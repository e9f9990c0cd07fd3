// SPDX-License-Identifier: BSL-1.0
// emflow/memory_budget.hpp: one memory budget for a whole flow graph. Every node that holds
// memory declares a demand in bytes (minimum, maximum or unbounded, share) when it is started;
// a node given an explicit size declares it as minimum and maximum, so it keeps it.
//
// Phases. A sort's run formation and its merge never hold memory at the same time, and the
// nodes that stream into each other do. materialize() starts the graph at level 0; a sort
// starts its input one level lower (its runs are formed there, its merge belongs to the level
// it is pulled in), so a level is a phase: the consumers of one level run together, level l
// ends before level l + 1 starts. Buffers allocated at start() and kept to the end (async
// buffers, scratch chunks, vector readers and writers) are declared run-long: they are part of
// every phase.
//
// Assignment. Before any work, assign() gives run-long consumers their default size (within
// their bounds; together at most a sixteenth of the budget above their minima), then
// splits the rest of the budget among each level's consumers by share within their bounds
// (water-filling). A level whose minima exceed the budget is a config_error naming its
// consumers and their minima. Without a budget every consumer gets its default.
//
// Accounting. Nodes acquire their memory when their phase starts and release it when it ends;
// acquire() never grants more than the budget minus what others hold (but at least the
// consumer's minimum), so phases that overlap at their edges (a merge pulled before the next
// level's sibling finished) take what is left instead of exceeding the budget. Freed memory
// goes back to the system: large blocks are mmap-ed (M_MMAP_THRESHOLD) and every release of a
// large consumer (and the start of a run with a budget) trims the heap (malloc_trim), since
// glibc keeps freed memory otherwise.
#pragma once

#include <emflow/detail/allocator_tuning.hpp>
#include <emflow/external_memory.hpp>
#include <emflow/progress.hpp>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace emflow {

//! "12.5 MiB": bytes in MiB, rounded up (a need: round_up) or down (a budget) to a tenth, so that
//! a budget below a need never reads as large as it. Every budget error says its sizes so.
inline std::string format_mib(std::uint64_t bytes, bool round_up) {
    const double tenths = double(bytes) * 10 / double(1 << 20);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB",
                  (round_up ? std::ceil(tenths) : std::floor(tenths)) / 10);
    return buf;
}

//! A maximum meaning "as much as the budget gives".
inline constexpr std::size_t unbounded_memory = std::numeric_limits<std::size_t>::max();

//! A buffer size in bytes or in elements, or automatic (assigned from the run's budget).
class buffer_size {
public:
    //! Automatic.
    buffer_size() = default;
    //! True if the run's budget decides.
    bool automatic() const { return kind_ == kind::automatic; }
    //! The size in bytes for elements of elem_bytes bytes (automatic: 0).
    std::size_t in_bytes(std::size_t elem_bytes) const {
        return kind_ == kind::elements ? n_ * elem_bytes : kind_ == kind::bytes ? n_ : 0;
    }

private:
    enum class kind { automatic, bytes, elements };
    buffer_size(kind k, std::size_t n) : kind_(k), n_(n) {}
    friend buffer_size bytes(std::size_t);
    friend buffer_size elements(std::size_t);
    kind kind_ = kind::automatic;
    std::size_t n_ = 0;
};

//! A size of n bytes.
inline buffer_size bytes(std::size_t n) { return buffer_size(buffer_size::kind::bytes, n); }
//! A size of n elements.
inline buffer_size elements(std::size_t n) { return buffer_size(buffer_size::kind::elements, n); }

//! What a node asks of the budget, in bytes.
struct memory_demand {
    std::size_t min_bytes = 0;                 //!< below this the node cannot work
    std::size_t max_bytes = unbounded_memory;  //!< more is of no use
    double share = 1;                          //!< weight in the split of the rest
    std::size_t default_bytes = 0;             //!< without a budget (clamped to min, max)

    //! A fixed size: what a node given an explicit size declares.
    static memory_demand fixed(std::size_t b) { return {b, b, 0, b}; }
};

//! The demand of an async node's two buffers of T: size per buffer, or automatic (between 64
//! KiB and 16 MiB each, 1 MiB without a budget, a small share of it).
template <class T>
memory_demand async_buffer_demand(buffer_size size) {
    if (!size.automatic())
        return memory_demand::fixed(2 * std::max(size.in_bytes(sizeof(T)), sizeof(T)));
    const std::size_t lo = std::max<std::size_t>(64 << 10, sizeof(T));
    return {2 * lo, 2 * (std::size_t(16) << 20), 0.05, 2 * (std::size_t(1) << 20)};
}

//! The buffers of a bufreader or bufwriter over an stxxl::vector of type Vector: STXXL's default
//! of 2 blocks per disk, and the current one.
template <class Vector>
std::size_t vector_stream_bytes() {
    ensure_external_memory();
    return (2 * std::size_t(stxxl::config::get_instance()->disks_number()) + 1) *
           Vector::block_type::raw_size;
}

//! One phase as assigned: its consumers and their bytes.
struct memory_phase {
    int level = 0;                                               //!< its level
    std::vector<std::pair<std::string, std::size_t>> consumers;  //!< name, assigned bytes
};

//! What a run did with its memory.
struct memory_report {
    std::vector<memory_phase> phases;  //!< the assignment, run-long consumers first
    std::size_t peak_held = 0;         //!< most bytes the nodes held at once
};

//! The settings of one run of a graph (materialize(graph, out, options)).
struct run_options {
    std::size_t memory_bytes = 0;     //!< the budget of the whole graph; 0: none
    int threads = 0;                  //!< threads of the run's arena; 0: the shared arena
    progress* report = nullptr;       //!< per-phase progress; null: none
    memory_report* memory = nullptr;  //!< receives the assignment and the peak; null: none
};

//! The memory declarations, assignment and accounting of one run (see the file comment).
class memory_plan {
public:
    using id = std::size_t;  //!< a declared consumer
    //! Called with the consumer's assignment before any work starts.
    using on_assigned = std::function<void(std::size_t)>;

    //! A plan for a run with budget bytes (0: none), reporting phases to report (may be null).
    explicit memory_plan(std::size_t budget = 0, progress* report = nullptr)
        : budget_(budget), report_(report) {
        if (budget_ == 0) return;
        return_freed_memory_to_system();
        ::malloc_trim(0);  // what earlier work freed is not this run's
    }
    memory_plan(const memory_plan&) = delete;
    memory_plan& operator=(const memory_plan&) = delete;
    ~memory_plan() { end_phases(); }

    //! The budget in bytes (0: none).
    std::size_t budget() const { return budget_; }

    //! The level nodes started now belong to.
    int level() const { return level_; }

    //! Lowers the level by one while it lives: a sort starts its input inside one.
    class below {
    public:
        //! Enters the level below p's current one.
        explicit below(memory_plan& p) : p_(p) { --p_.level_; }
        ~below() { ++p_.level_; }
        below(const below&) = delete;
        below& operator=(const below&) = delete;

    private:
        memory_plan& p_;
    };

    //! Declares a consumer of the current level. Of a phase's consumers, those of the highest
    //! progress rank count its progress (a merge's output rather than the runs it feeds).
    id declare(std::string name, const memory_demand& d, on_assigned cb = {}, int rank = 0) {
        return add(std::move(name), d, level_, false, std::move(cb), rank);
    }
    //! Declares a consumer of the given level.
    id declare_at(int level, std::string name, const memory_demand& d, on_assigned cb = {},
                  int rank = 0) {
        return add(std::move(name), d, level, false, std::move(cb), rank);
    }
    //! Declares a consumer present in every phase (allocated at start, kept to the end; it is
    //! counted as held from assign() on, without acquire() and release()).
    id declare_run_long(std::string name, const memory_demand& d, on_assigned cb = {}) {
        return add(std::move(name), d, 0, true, std::move(cb), 0);
    }
    //! Moves a consumer to another level (before assign()).
    void move_to(id c, int level) { consumers_.at(c).level = level; }

    //! Assigns the budget (file comment) and tells every consumer; throws config_error.
    void assign() {
        assign_run_long();
        std::map<int, std::vector<consumer*>> levels;
        levels[0];  // a graph of run-long buffers alone is one phase too: its minima are checked
        for (auto& c : consumers_)
            if (!c.run_long) levels[c.level].push_back(&c);
        for (auto& [level, cs] : levels) {
            assign_level(level, cs);
            int top = 0;
            for (consumer* c : cs) top = std::max(top, c->rank);
            for (consumer* c : cs) c->counts = c->rank == top;
        }
        held_ = peak_ = run_long_;  // run-long buffers are held from start to end
        for (auto& c : consumers_)
            if (c.cb) c.cb(c.assigned);
    }

    //! The bytes assigned to c.
    std::size_t assigned(id c) const { return consumers_.at(c).assigned; }

    //! The least budget assign() accepts: the run-long minima plus the largest sum of one
    //! level's minima.
    std::size_t least_bytes() const {
        std::map<int, std::size_t> minima;
        minima[0];
        for (const auto& c : consumers_)
            if (!c.run_long) minima[c.level] += c.demand.min_bytes;
        std::size_t most = 0;
        for (const auto& [level, m] : minima) most = std::max(most, m);
        return run_long_min() + most;
    }

    //! c starts to hold up to want bytes, and up to optional bytes more: returns what it may use
    //! (file comment). The optional part comes only from what is free beyond the assignments
    //! of its phase's consumers that have not acquired yet. Begins the phase's progress report
    //! if c is the phase's first.
    std::size_t acquire(id c, std::size_t want, std::size_t optional = 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        consumer& k = consumers_.at(c);
        std::size_t grant = want + optional;
        if (budget_ > 0) {
            const std::size_t others = held_ - k.held;
            const std::size_t free = budget_ > others ? budget_ - others : 0;
            grant = std::max(std::min(want, free), std::min(want, k.demand.min_bytes));
            std::size_t reserved = 0;
            for (const auto& o : consumers_)
                if (&o != &k && !o.run_long && o.level == k.level && !o.acquired)
                    reserved += o.assigned;
            const std::size_t spare = free > grant + reserved ? free - grant - reserved : 0;
            grant += std::min(optional, spare);
        }
        held_ = held_ - k.held + grant;
        k.held = grant;
        k.acquired = true;
        peak_ = std::max(peak_, held_);
        if (!k.run_long) begin_phase_locked(k.level);
        return grant;
    }
    //! c freed its memory; ends its phase's report if c was the phase's last holder.
    void release(id c) {
        std::size_t freed;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            consumer& k = consumers_.at(c);
            freed = k.held;
            held_ -= k.held;
            k.held = 0;
            if (!k.run_long && !k.released) {
                k.released = true;
                end_phase_if_done_locked(k.level);
            }
        }
        if (freed >= trim_threshold) ::malloc_trim(0);
    }
    //! Counts items and bytes done by c's phase (its progress report).
    void count(id c, std::uint64_t items, std::uint64_t bytes_done) {
        if (!report_ || !consumers_.at(c).counts) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (phase_report* r = find_report(consumers_.at(c).level)) r->ph.add(items, bytes_done);
    }
    //! Adds to the bytes c's phase is expected to process (its time-left estimate).
    void expect(id c, std::uint64_t bytes_total) {
        if (!report_ || !consumers_.at(c).counts) return;
        std::lock_guard<std::mutex> lock(mutex_);
        const int level = consumers_.at(c).level;
        if (phase_report* r = find_report(level))
            r->ph.expect(bytes_total);
        else
            expected_[level] += bytes_total;
    }

    //! Most bytes held at once so far.
    std::size_t peak_held() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return peak_;
    }
    //! The phases as assigned, lowest level first (run-long consumers as level INT_MIN).
    std::vector<memory_phase> phases() const {
        std::map<int, memory_phase> m;
        for (const auto& c : consumers_) {
            const int l = c.run_long ? std::numeric_limits<int>::min() : c.level;
            m[l].level = l;
            m[l].consumers.emplace_back(c.name, c.assigned);
        }
        std::vector<memory_phase> out;
        for (auto& [l, p] : m) out.push_back(std::move(p));
        return out;
    }
    //! Ends every phase report still open (the run ended).
    void end_phases() {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& r : reports_) r.ph.end();
    }

    //! Makes glibc return freed large buffers to the system at once: fixes its mmap threshold
    //! as configure_external_memory() does (emflow/detail/allocator_tuning.hpp; the user's
    //! MALLOC_MMAP_THRESHOLD_ or GLIBC_TUNABLES setting wins, EMFLOW_MALLOC_TUNING=off keeps
    //! glibc's defaults).
    static void return_freed_memory_to_system() { detail::tune_allocator(); }

    //! A consumer's release from this size on trims the heap.
    static constexpr std::size_t trim_threshold = std::size_t(1) << 20;

private:
    struct consumer {
        std::string name;
        memory_demand demand;
        int level = 0;
        bool run_long = false;
        on_assigned cb;
        int rank = 0;
        std::size_t assigned = 0, held = 0;
        bool acquired = false, released = false, counts = false;
    };
    struct phase_report {
        int level;
        progress::phase ph;
    };

    id add(std::string name, memory_demand d, int level, bool run_long, on_assigned cb, int rank) {
        d.max_bytes = std::max(d.max_bytes, d.min_bytes);
        consumers_.push_back({std::move(name), d, level, run_long, std::move(cb), rank});
        return consumers_.size() - 1;
    }

    static std::size_t clamp(std::size_t x, const memory_demand& d) {
        return std::clamp(x, d.min_bytes, d.max_bytes);
    }

    void assign_run_long() {
        std::size_t sum_min = 0, sum_default = 0;
        for (auto& c : consumers_) {
            if (!c.run_long) continue;
            c.assigned = clamp(c.demand.default_bytes, c.demand);
            sum_min += c.demand.min_bytes;
            sum_default += c.assigned;
        }
        run_long_ = sum_default;
        // what they get above their minima: at most a sixteenth of the budget
        const std::size_t cap = budget_ / 16;
        if (budget_ == 0 || sum_default - sum_min <= cap) return;
        const double f = double(cap) / double(sum_default - sum_min);
        run_long_ = 0;
        for (auto& c : consumers_) {
            if (!c.run_long) continue;
            c.assigned =
                c.demand.min_bytes + std::size_t(f * double(c.assigned - c.demand.min_bytes));
            run_long_ += c.assigned;
        }
    }

    void assign_level(int level, std::vector<consumer*>& cs) {
        if (budget_ == 0) {
            for (consumer* c : cs) c->assigned = clamp(c->demand.default_bytes, c->demand);
            return;
        }
        std::size_t minima = run_long_min();
        for (consumer* c : cs) minima += c->demand.min_bytes;
        if (minima > budget_) throw too_small(level, cs, minima);
        // water-filling: split the rest by share; fix those clamped at a bound, repeat
        std::size_t rest = budget_ - run_long_;
        std::vector<consumer*> open;
        for (consumer* c : cs) {
            if (c->demand.share <= 0 || c->demand.min_bytes == c->demand.max_bytes) {
                c->assigned = c->demand.min_bytes;
                rest -= std::min(rest, c->assigned);
            } else {
                open.push_back(c);
            }
        }
        while (!open.empty()) {
            double shares = 0;
            for (consumer* c : open) shares += c->demand.share;
            std::vector<consumer*> next;
            bool clamped = false;
            for (consumer* c : open) {
                const auto want = std::size_t(double(rest) * c->demand.share / shares);
                if (want < c->demand.min_bytes || want > c->demand.max_bytes) {
                    c->assigned = clamp(want, c->demand);
                    rest -= std::min(rest, c->assigned);
                    clamped = true;
                } else {
                    next.push_back(c);
                }
            }
            if (!clamped) {
                for (consumer* c : next)
                    c->assigned = std::size_t(double(rest) * c->demand.share / shares);
                break;
            }
            open = std::move(next);
        }
    }

    std::size_t run_long_min() const {
        std::size_t s = 0;
        for (const auto& c : consumers_)
            if (c.run_long) s += c.demand.min_bytes;
        return s;
    }

    //! "emflow: memory budget of 10.0 MiB is below the 11.0 MiB that phase 1/2 (sort runs,
    //! merge) needs at least: reader 4.0 MiB; ...": the phase as its progress names it, each
    //! consumer's minimum, run-long buffers first.
    config_error too_small(int level, const std::vector<consumer*>& cs, std::size_t minima) const {
        std::string msg =
            "emflow: memory budget of " + format_mib(budget_, false) + " is below the " +
            format_mib(minima, true) + " that " +
            (cs.empty() ? std::string("the buffers kept through the run need")
                        : phase_label(level) + " (" + phase_consumers(level) + ") needs") +
            " at least:";
        auto list = [&](const consumer& c) {
            msg += " " + c.name + " " + format_mib(c.demand.min_bytes, true) + ";";
        };
        for (const auto& c : consumers_)
            if (c.run_long) list(c);
        for (const consumer* c : cs) list(*c);
        msg.pop_back();
        return config_error(msg + " (" + std::to_string(minima) + " bytes)");
    }

    phase_report* find_report(int level) {
        for (auto& r : reports_)
            if (r.level == level) return &r;
        return nullptr;
    }

    //! "phase 2/3: 2 merge, 2 sort runs": the phase's place among the levels and its consumers.
    std::string phase_name(int level) const {
        return phase_label(level) + ": " + phase_consumers(level);
    }

    //! "phase 2/3": the place of a level that has consumers among the levels that have.
    std::string phase_label(int level) const {
        std::map<int, int> levels;
        for (const auto& c : consumers_)
            if (!c.run_long) levels[c.level] = 0;
        int k = 0;
        for (auto& [l, index] : levels) index = ++k;
        return "phase " + std::to_string(levels[level]) + "/" + std::to_string(levels.size());
    }

    //! "2 merge, 2 sort runs": a level's consumers by name, counted.
    std::string phase_consumers(int level) const {
        std::map<std::string, int> names;
        for (const auto& c : consumers_)
            if (!c.run_long && c.level == level) ++names[c.name];
        std::string list;
        for (const auto& [n, count] : names)
            list += (list.empty() ? "" : ", ") + (count > 1 ? std::to_string(count) + " " : "") + n;
        return list;
    }

    void begin_phase_locked(int level) {
        if (!report_ || find_report(level)) return;
        const auto it = expected_.find(level);
        reports_.push_back(
            {level, report_->begin(phase_name(level), it == expected_.end() ? 0 : it->second)});
    }

    void end_phase_if_done_locked(int level) {
        phase_report* r = find_report(level);
        if (!r) return;
        for (const auto& c : consumers_)
            if (!c.run_long && c.level == level && !c.released) return;
        r->ph.end();
    }

    std::size_t budget_;
    progress* report_;
    int level_ = 0;
    std::vector<consumer> consumers_;  // ids are indexes; declared while the graph is started
    std::size_t run_long_ = 0;
    mutable std::mutex mutex_;  // held_, peak_, the consumers' held bytes, reports_, expected_
    std::size_t held_ = 0, peak_ = 0;
    std::vector<phase_report> reports_;
    std::map<int, std::uint64_t> expected_;
};

}  // namespace emflow
