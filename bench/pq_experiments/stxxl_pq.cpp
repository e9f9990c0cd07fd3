// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/stxxl_pq.cpp: picks the instantiated stxxl::priority_queue budget
// nearest to --memory and runs the experiment on it.
#include "implementations.hpp"
#include "stxxl_pq_driver.hpp"

#include <cmath>

namespace pq_bench {

std::vector<stxxl_pq_instance>& stxxl_pq_instances() {
    static std::vector<stxxl_pq_instance> instances;
    return instances;
}

bool register_stxxl_pq_instance(const stxxl_pq_instance& instance) {
    stxxl_pq_instances().push_back(instance);
    return true;
}

run_result run_stxxl_pq(const options& o) {
    const stxxl_pq_instance* best = nullptr;
    double best_distance = 0;
    for (const stxxl_pq_instance& in : stxxl_pq_instances()) {
        if (in.item_bytes != o.item_bytes) continue;
        const double distance = std::fabs(std::log2(double(in.budget_bytes) / o.memory_bytes));
        if (!best || distance < best_distance) {
            best = &in;
            best_distance = distance;
        }
    }
    if (!best)
        throw std::invalid_argument("stxxl_pq: no budget instantiated for " +
                                    std::to_string(o.item_bytes) + "-byte items");
    run_result r = best->run(o);
    r.memory_note =
        best->budget_bytes == o.memory_bytes
            ? "as requested"
            : "nearest compiled-in budget (" + std::to_string(best->budget_bytes >> 20) + " MiB)";
    return r;
}

}  // namespace pq_bench
