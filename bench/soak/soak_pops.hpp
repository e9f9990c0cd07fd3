// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_pops.hpp: the soak's extractions: top/pop, bulk_pop, bulk_pop_limit and limit
// phases (with limit_push from several threads), each result checked against the model.
#pragma once

#include "soak_state.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace soak {

inline void single_pops(soak_state& s, std::size_t k) {
    s.call_name = "top/pop";
    std::size_t n = 0;
    for (; n < k && !s.ref.empty(); ++n) {
        const item t = s.pq.top();
        s.ref.take_next(t, "top()");
        s.pq.pop();
        s.clock = t.key;
    }
    s.done(n);
}

inline void bulk_pops(soak_state& s, std::size_t k) {
    s.call_name = "bulk_pop";
    const std::size_t max = s.below(50) == 0 ? 0 : k;
    s.pq.bulk_pop(s.out, max);
    if (s.out.size() != std::min(max, s.ref.size()))
        throw mismatch("bulk_pop(" + std::to_string(max) + ") gave " +
                       std::to_string(s.out.size()) + " items, model holds " +
                       std::to_string(s.ref.size()));
    s.take_all("bulk_pop()");
}

inline void bulk_pops_limit(soak_state& s, std::size_t k) {
    s.call_name = "bulk_pop_limit";
    const item limit = s.make_limit(k);
    const bool unlimited = !s.growing && s.below(2) == 0;
    const std::size_t max = unlimited ? SIZE_MAX : k;
    const bool done_flag =
        unlimited ? s.pq.bulk_pop_limit(s.out, limit) : s.pq.bulk_pop_limit(s.out, limit, max);
    if (s.out.size() > max) throw mismatch("bulk_pop_limit() gave more than max_size items");
    for (const item& x : s.out)
        if (x.key >= limit.key)
            throw mismatch("bulk_pop_limit() gave " + describe(x) + ", not before the limit " +
                           describe(limit));
    s.take_all("bulk_pop_limit()");
    const bool more = s.ref.any_before(limit);
    if (done_flag == more) throw mismatch("bulk_pop_limit() returned the wrong done flag");
    if (s.out.size() < max && more)
        throw mismatch("bulk_pop_limit() stopped before max_size with items before the limit");
}

//! limit_push of m items from each of up to num_threads std::threads with distinct ids.
inline std::size_t limit_push_burst(soak_state& s, const item& limit, std::size_t m) {
    const unsigned t = 1 + unsigned(s.below(s.opt.threads));
    std::vector<item> items(m * t);
    for (item& x : items) x = s.after(limit);
    on_threads(t, [&](unsigned id) {
        for (std::size_t i = id * m; i < (id + 1) * m; ++i) s.pq.limit_push(items[i], id);
    });
    s.ref.insert(items.begin(), items.end());
    return items.size();
}

//! One step of a limit phase: a limit_push, a burst of them, or a limit_top/limit_pop.
inline std::size_t limit_step(soak_state& s, const item& limit) {
    const std::uint64_t push_share = s.growing ? 2 : 1;  // of 3
    if (s.below(3) < push_share) {
        if (s.below(64) == 0) return limit_push_burst(s, limit, 1 + s.below(1000));
        const item x = s.after(limit);
        s.pq.limit_push(x, unsigned(s.below(s.opt.threads)));
        s.ref.insert(x);
    } else if (!s.ref.empty()) {
        const item t = s.pq.limit_top();
        s.ref.check_next(t, "limit_top()");
        s.pq.limit_pop();
        s.ref.take_next(t, "limit_pop()");
        s.clock = std::max(s.clock, t.key);
    } else {
        s.expect_throw<std::logic_error>("limit_top() on an empty queue",
                                         [&] { s.pq.limit_top(); });
    }
    return 1;
}

//! A limit phase: extractions, limit_push from this thread and bursts from several threads.
inline void limit_phase(soak_state& s, std::size_t k) {
    s.call_name = "limit phase";
    const item limit = s.make_limit(k);
    s.pq.limit_begin(limit, 1 + s.below(k));
    std::size_t n = 0;
    for (std::size_t step = 0; step < k; ++step) n += limit_step(s, limit);
    if (limit.key > 0 && s.below(16) == 0)
        s.expect_throw<std::invalid_argument>("limit_push() before the limit", [&] {
            s.pq.limit_push(item{limit.key - 1, ++s.serial}, 0);
        });
    s.pq.limit_end();
    s.check_size("limit_end()");
    s.done(n);
}

}  // namespace soak
