// SPDX-License-Identifier: BSL-1.0
// emflow/progress.hpp: progress reporting of long runs, phase by phase. A phase counts the items
// and bytes it has done (two relaxed atomic adds per call: call it per batch, not per item); a
// background thread hands each active phase's figures to a callback every interval, and once
// more when the phase ends. stderr_renderer() is the default callback: one updating line per
// phase on a terminal, plain lines otherwise (each phase's end, and every few seconds in between).
//
//   emflow::progress report(emflow::stderr_renderer());
//   auto ph = begin_phase(&report, "sort triples", n * sizeof(triple));   // inert for nullptr
//   ph.add(k, k * sizeof(triple));   ...   ph.end();                      // or its destructor
#pragma once

#include <emflow/external_memory.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace emflow {

//! The figures of one phase at one moment.
struct progress_figures {
    std::string phase;                   //!< its name
    std::uint64_t items = 0;             //!< items done
    std::uint64_t bytes = 0;             //!< bytes done
    std::uint64_t bytes_total = 0;       //!< bytes expected; 0: unknown
    double elapsed_s = 0;                //!< since the phase began
    double eta_s = -1;                   //!< estimated seconds left; -1: unknown
    std::uint64_t io_read_bytes = 0;     //!< read by STXXL since the phase began (process-wide)
    std::uint64_t io_written_bytes = 0;  //!< written by STXXL since the phase began
    bool finished = false;               //!< the last report of the phase
};

//! A run's progress: phases reported to a callback.
class progress {
    struct phase_state {
        std::string name;
        std::atomic<std::uint64_t> bytes_total{0}, items{0}, bytes{0};
        std::chrono::steady_clock::time_point begin = std::chrono::steady_clock::now();
        io_volume io_begin = current_io_volume();
    };

public:
    using callback = std::function<void(const progress_figures&)>;  //!< receives figures

    //! Reports to cb every interval (from a background thread) and at each phase's end (from
    //! the thread that ends it); calls are serialized.
    explicit progress(callback cb,
                      std::chrono::milliseconds interval = std::chrono::milliseconds(500))
        : cb_(std::move(cb)), interval_(interval), ticker_([this] { tick_loop(); }) {}
    ~progress() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        ticker_.join();
    }
    progress(const progress&) = delete;
    progress& operator=(const progress&) = delete;

    //! A phase being counted; ends at end() or destruction. Default-constructed: inert.
    class phase {
    public:
        phase() = default;
        //! Takes over o's phase; o becomes inert.
        phase(phase&& o) noexcept : owner_(o.owner_), s_(std::move(o.s_)) { o.owner_ = nullptr; }
        //! Ends this phase, then takes over o's; o becomes inert.
        phase& operator=(phase&& o) noexcept {
            if (this != &o) {
                end();
                owner_ = std::exchange(o.owner_, nullptr);
                s_ = std::move(o.s_);
            }
            return *this;
        }
        ~phase() { end(); }

        //! Counts items and bytes done; thread-safe.
        void add(std::uint64_t items, std::uint64_t bytes) {
            if (!s_) return;
            s_->items.fetch_add(items, std::memory_order_relaxed);
            s_->bytes.fetch_add(bytes, std::memory_order_relaxed);
        }
        //! Adds to the bytes expected (the estimate of time left); thread-safe.
        void expect(std::uint64_t bytes) {
            if (s_) s_->bytes_total.fetch_add(bytes, std::memory_order_relaxed);
        }
        //! Ends the phase (reports its final figures); idempotent.
        void end() {
            if (!s_) return;
            owner_->finish(s_);
            s_.reset();
            owner_ = nullptr;
        }

    private:
        friend class progress;
        progress* owner_ = nullptr;
        std::shared_ptr<phase_state> s_;
    };

    //! Begins a phase named name; bytes_total (0: unknown) gives the estimate of time left.
    phase begin(std::string name, std::uint64_t bytes_total = 0) {
        auto s = std::make_shared<phase_state>();
        s->name = std::move(name);
        s->bytes_total.store(bytes_total, std::memory_order_relaxed);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            active_.push_back(s);
        }
        phase p;
        p.owner_ = this;
        p.s_ = std::move(s);
        return p;
    }

private:
    static progress_figures figures(const phase_state& s, bool finished) {
        progress_figures f;
        f.phase = s.name;
        f.items = s.items.load(std::memory_order_relaxed);
        f.bytes = s.bytes.load(std::memory_order_relaxed);
        f.bytes_total = s.bytes_total.load(std::memory_order_relaxed);
        f.elapsed_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - s.begin).count();
        if (f.bytes_total > 0 && f.bytes > 0 && f.bytes <= f.bytes_total)
            f.eta_s = f.elapsed_s * double(f.bytes_total - f.bytes) / double(f.bytes);
        io_volume io = current_io_volume();
        f.io_read_bytes = io.bytes_read - s.io_begin.bytes_read;
        f.io_written_bytes = io.bytes_written - s.io_begin.bytes_written;
        f.finished = finished;
        return f;
    }

    void finish(const std::shared_ptr<phase_state>& s) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            active_.erase(std::remove(active_.begin(), active_.end(), s), active_.end());
        }
        std::lock_guard<std::mutex> lock(report_mutex_);
        cb_(figures(*s, true));
    }

    void tick_loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, interval_, [&] { return stop_; })) {
            std::vector<std::shared_ptr<phase_state>> phases = active_;
            lock.unlock();
            {
                std::lock_guard<std::mutex> report(report_mutex_);
                for (const auto& s : phases) cb_(figures(*s, false));
            }
            lock.lock();
        }
    }

    callback cb_;
    std::chrono::milliseconds interval_;
    std::mutex mutex_, report_mutex_;  // mutex_: active_ and stop_; report_mutex_: calls of cb_
    std::condition_variable wake_;
    std::vector<std::shared_ptr<phase_state>> active_;
    bool stop_ = false;
    std::thread ticker_;  // last: started after everything it uses
};

//! A phase of p, or an inert phase when p is null (so that reporting is optional everywhere).
inline progress::phase begin_phase(progress* p, std::string name, std::uint64_t bytes_total = 0) {
    return p ? p->begin(std::move(name), bytes_total) : progress::phase();
}

//! "1.5 GiB"-style rendering of a byte count.
inline std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

//! One line describing f: name, bytes done (of total), rate, elapsed, time left, I/O.
inline std::string format_progress(const progress_figures& f) {
    std::string line = f.phase + ": " + format_bytes(double(f.bytes));
    if (f.bytes_total > 0) line += " / " + format_bytes(double(f.bytes_total));
    char buf[160];
    double rate = f.elapsed_s > 0 ? double(f.bytes) / f.elapsed_s : 0;
    std::snprintf(buf, sizeof buf, ", %s/s, %.1f s", format_bytes(rate).c_str(), f.elapsed_s);
    line += buf;
    if (!f.finished && f.eta_s >= 0) {
        std::snprintf(buf, sizeof buf, ", ~%.0f s left", f.eta_s);
        line += buf;
    }
    line += ", I/O read " + format_bytes(double(f.io_read_bytes)) + " written " +
            format_bytes(double(f.io_written_bytes));
    return line;
}

//! The default renderer to stderr: on a terminal one line per phase rewritten in place, else a
//! plain line at each phase's end and every plain_every in between for long phases.
inline progress::callback stderr_renderer(bool terminal = ::isatty(2) != 0,
                                          double plain_every_s = 10) {
    struct state {
        std::vector<std::pair<std::string, double>> last_plain;  // phase -> elapsed at last line
    };
    auto st = std::make_shared<state>();
    return [st, terminal, plain_every_s](const progress_figures& f) {
        std::string line = format_progress(f);
        if (terminal) {
            std::fprintf(stderr, "\r%s\x1b[K%s", line.c_str(), f.finished ? "\n" : "");
            return;
        }
        auto it = std::find_if(st->last_plain.begin(), st->last_plain.end(),
                               [&](const auto& e) { return e.first == f.phase; });
        if (f.finished) {
            if (it != st->last_plain.end()) st->last_plain.erase(it);
            std::fprintf(stderr, "%s\n", line.c_str());
        } else if (f.elapsed_s >= plain_every_s &&
                   (it == st->last_plain.end() || f.elapsed_s - it->second >= plain_every_s)) {
            if (it == st->last_plain.end())
                st->last_plain.emplace_back(f.phase, f.elapsed_s);
            else
                it->second = f.elapsed_s;
            std::fprintf(stderr, "%s\n", line.c_str());
        }
    };
}

}  // namespace emflow
