// SPDX-License-Identifier: BSL-1.0
// bench/soak/soak_checks.hpp: the soak's inspections (size, empty, top, stats, layout against
// the model) and misuse (calls that must throw and leave the queue unchanged).
#pragma once

#include "soak_state.hpp"

#include <emflow/ppq.hpp>

#include <stdexcept>
#include <string>

namespace soak {

//! size, empty, top, stats and layout against the model.
inline void inspect(soak_state& s) {
    s.call_name = "inspect";
    s.check_size("size()");
    if (s.pq.empty() != s.ref.empty()) throw mismatch("empty() disagrees with the model");
    if (!s.ref.empty()) s.ref.check_next(s.pq.top(), "top()");
    const emflow::ppq_stats st = s.pq.stats();
    if (st.items_in_ram + st.items_on_disk != s.ref.size())
        throw mismatch("stats(): items_in_ram + items_on_disk != size");
    if (st.peak_memory_bytes > s.pq.layout().memory_bytes)
        throw mismatch("stats(): peak_memory_bytes " + std::to_string(st.peak_memory_bytes) +
                       " over memory_bytes");
    if (s.pq.layout().threads != s.opt.threads || s.pq.layout().memory_bytes != s.opt.budget_mib
                                                                                    << 20)
        throw mismatch("layout() does not match the options");
    s.done(1);
}

//! Calls that must throw and leave the queue unchanged.
inline void misuse(soak_state& s) {
    s.call_name = "misuse";
    const item x = s.make_item();
    if (s.ref.empty()) {
        s.expect_throw<std::logic_error>("pop() on empty", [&] { s.pq.pop(); });
        s.expect_throw<std::logic_error>("top() on empty", [&] { s.pq.top(); });
    }
    s.expect_throw<std::logic_error>("bulk_push() outside a bulk phase",
                                     [&] { s.pq.bulk_push(x, 0); });
    s.expect_throw<std::logic_error>("bulk_push_end() outside a bulk phase",
                                     [&] { s.pq.bulk_push_end(); });
    s.expect_throw<std::logic_error>("limit_end() outside a limit phase",
                                     [&] { s.pq.limit_end(); });
    s.pq.bulk_push_begin(s.below(1000));
    s.expect_throw<std::logic_error>("push() in a bulk phase", [&] { s.pq.push(x); });
    s.expect_throw<std::logic_error>("bulk_pop() in a bulk phase",
                                     [&] { s.pq.bulk_pop(s.out, 10); });
    s.expect_throw<std::logic_error>("nested bulk_push_begin()", [&] { s.pq.bulk_push_begin(10); });
    s.expect_throw<std::logic_error>("bulk_push() with id num_threads",
                                     [&] { s.pq.bulk_push(x, s.opt.threads); });
    s.pq.bulk_push_end();  // an empty bulk phase
    s.check_size("misuse");
    s.done(1);
}

}  // namespace soak
