// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/buffer_tree_pq.cpp: drives emflow's buffer-tree priority queue (Arge's
// external priority queue, the PPQ paper's reference [2]) through the experiments: push one
// item at a time, pop with top/pop one at a time. Its budget is --memory exactly.
#include "experiments.hpp"
#include "implementations.hpp"
#include "items.hpp"

#include <emflow/buffer_tree_pq.hpp>

#include <memory>

namespace pq_bench {
namespace {

template <class T>
class buffer_tree_pq_driver {
public:
    explicit buffer_tree_pq_driver(const options& o) : queue_(ppq_order<T>(), config_of(o)) {}

    //! Pushes keys(first) .. keys(first + count - 1), one by one.
    void push_keys(const key_sequence& keys, std::uint64_t first, std::uint64_t count,
                   key_checksum& pushed) {
        for (std::uint64_t i = first; i < first + count; ++i) {
            const std::uint64_t key = keys(i);
            queue_.push(make_item<T>(key));
            pushed.add(key);
        }
    }

    //! Pops count items one by one (top, pop).
    void pop_items(std::uint64_t count, pop_verifier& verifier) {
        for (std::uint64_t i = 0; i < count; ++i) {
            if (queue_.empty()) throw verification_error("buffer_tree_pq ran empty early");
            verifier.accept(queue_.top());
            queue_.pop();
        }
    }

    //! Items in the queue.
    std::uint64_t size() const { return queue_.size(); }

private:
    static emflow::buffer_tree_pq_options config_of(const options& o) {
        emflow::buffer_tree_pq_options cfg;
        cfg.memory_bytes = static_cast<std::size_t>(o.memory_bytes);
        return cfg;
    }

    emflow::buffer_tree_priority_queue<T, ppq_order<T>> queue_;
};

template <class T>
run_result run_with(const options& o) {
    auto d = std::make_unique<buffer_tree_pq_driver<T>>(o);
    run_result r = run_experiment(o, *d);
    r.memory_used_bytes = o.memory_bytes;
    r.memory_note = "as requested";
    return r;
}

}  // namespace

run_result run_buffer_tree_pq(const options& o) {
    return o.item_bytes == 8 ? run_with<item_8>(o) : run_with<item_24>(o);
}

}  // namespace pq_bench
