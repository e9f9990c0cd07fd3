// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_pushes.hpp: the soak's insertions: single pushes, bulk phases pushed in five
// ways (std::threads with and without ids, oneTBB tasks, OpenMP, the calling thread) and sorted
// runs, each checked against the model.
#pragma once

#include "soak_state.hpp"

#include <omp.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace soak {

inline void single_pushes(soak_state& s, std::size_t k) {
    s.call_name = "push";
    for (std::size_t i = 0; i < k; ++i) {
        const item x = s.make_item();
        s.pq.push(x);
        s.ref.insert(x);
    }
    s.done(k);
}

//! Pushes slice `part` of `parts` of items, single items and arrays mixed (by seed).
inline void push_slice(queue& pq, const std::vector<item>& items, unsigned parts, unsigned part,
                       std::uint64_t seed, bool with_id) {
    const std::size_t begin = items.size() * part / parts;
    const std::size_t end = items.size() * (part + 1) / parts;
    std::mt19937_64 rng(seed + part);
    for (std::size_t i = begin; i < end;) {  // n == 0: an empty array
        const std::size_t n = std::min<std::size_t>(end - i, rng() % 2 ? 1 : rng() % 5000);
        if (n == 1)
            with_id ? pq.bulk_push(items[i], part) : pq.bulk_push(items[i]);
        else
            with_id ? pq.bulk_push(items.data() + i, n, part) : pq.bulk_push(items.data() + i, n);
        i += n;
    }
}

//! Pushes items from t OpenMP threads without ids; rethrows the first exception.
inline void push_on_openmp(queue& pq, const std::vector<item>& items, unsigned t,
                           std::uint64_t seed) {
    std::exception_ptr error;
    std::mutex m;
#pragma omp parallel for num_threads(t) schedule(static, 1)
    for (unsigned id = 0; id < t; ++id) {
        try {
            push_slice(pq, items, t, id, seed, false);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m);
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);
}

//! Pushes items from oneTBB tasks in an arena of t threads, without ids.
inline void push_on_tbb(queue& pq, const std::vector<item>& items, unsigned t, std::uint64_t seed) {
    tbb::task_arena arena{int(t)};
    const std::size_t chunks = std::min<std::size_t>(items.size(), 4 * t);
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
            push_slice(pq, items, unsigned(chunks), unsigned(c), seed, false);
        });
    });
}

//! One bulk phase, pushed in one of five ways by up to num_threads threads.
inline void bulk_phase(soak_state& s, std::size_t k) {
    const std::vector<item> items = s.make_items(k);
    const unsigned t = 1 + unsigned(s.below(s.opt.threads));
    const std::uint64_t how = s.below(5);
    const std::size_t approx[] = {k, k / 4, 4 * k, 0};
    s.pq.bulk_push_begin(approx[s.below(4)]);
    const std::uint64_t seed = s.rng();
    if (how == 0) {
        s.call_name = "bulk_push (std::threads with ids)";
        on_threads(t, [&](unsigned id) { push_slice(s.pq, items, t, id, seed, true); });
    } else if (how == 1) {
        s.call_name = "bulk_push (oneTBB tasks, no id)";
        push_on_tbb(s.pq, items, t, seed);
    } else if (how == 2) {
        s.call_name = "bulk_push (plain std::threads, no id)";
        on_threads(t, [&](unsigned id) { push_slice(s.pq, items, t, id, seed, false); });
    } else if (how == 3) {
        s.call_name = "bulk_push (OpenMP, no id)";
        push_on_openmp(s.pq, items, t, seed);
    } else {
        s.call_name = "bulk_push (calling thread, explicit id)";
        const unsigned id = unsigned(s.below(s.opt.threads));
        for (const item& x : items) s.pq.bulk_push(x, id);
    }
    s.pq.bulk_push_end();
    s.ref.insert(items.begin(), items.end());
    s.check_size("bulk_push_end()");
    s.done(k);
}

//! push_sorted of a sorted run; sometimes first an unsorted one, which must be refused.
inline void sorted_run(soak_state& s, std::size_t k) {
    s.call_name = "push_sorted";
    std::vector<item> run = s.make_items(k);
    std::sort(run.begin(), run.end(), model_less());
    if (k >= 2 && run.front().key != run.back().key && s.below(8) == 0) {
        std::vector<item> unsorted = run;
        std::swap(unsorted.front(), unsorted.back());
        s.expect_throw<std::invalid_argument>("push_sorted() of an unsorted run",
                                              [&] { s.pq.push_sorted(std::move(unsorted)); });
    }
    const std::vector<item> copy = run;
    s.pq.push_sorted(std::move(run));
    s.ref.insert(copy.begin(), copy.end());
    s.check_size("push_sorted()");
    s.done(k);
}

}  // namespace soak
