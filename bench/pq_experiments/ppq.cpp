// SPDX-License-Identifier: BSL-1.0
// bench/pq_experiments/ppq.cpp: drives emflow's bulk-parallel priority queue through the
// experiments the way the paper does: every push phase and rewrite bulk is one bulk_push phase
// fed from all threads, every pop phase and rewrite bulk uses bulk_pop.
#include "experiments.hpp"
#include "implementations.hpp"
#include "items.hpp"

#include <emflow/ppq.hpp>

#include <omp.h>

#include <exception>
#include <mutex>
#include <vector>

namespace pq_bench {
namespace {

template <class T>
class ppq_driver {
public:
    explicit ppq_driver(const options& o)
        : queue_(ppq_order<T>(), config_of(o)), threads_(o.threads), pop_bulk_(o.bulk_size) {}

    //! One bulk push phase: thread t of p pushes its slice [first + count*t/p, first +
    //! count*(t+1)/p).
    void push_keys(const key_sequence& keys, std::uint64_t first, std::uint64_t count,
                   key_checksum& pushed) {
        queue_.bulk_push_begin(count);
        std::vector<key_checksum> sums(threads_);
        std::exception_ptr error;
        std::mutex error_mutex;
#pragma omp parallel num_threads(threads_)
        {
            const auto t = static_cast<unsigned>(omp_get_thread_num());
            const auto p = static_cast<unsigned>(omp_get_num_threads());
            try {
                const std::uint64_t end = first + count * (t + 1) / p;
                for (std::uint64_t i = first + count * t / p; i < end; ++i) {
                    const std::uint64_t key = keys(i);
                    queue_.bulk_push(make_item<T>(key), t);
                    sums[t].add(key);
                }
            } catch (...) {  // exceptions must not leave an OpenMP region
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
            }
        }
        if (error) std::rethrow_exception(error);
        queue_.bulk_push_end();
        for (const key_checksum& s : sums) pushed.merge(s);
    }

    //! Pops count items with bulk_pop, in bulks of at most --bulk-size.
    void pop_items(std::uint64_t count, pop_verifier& verifier) {
        while (count > 0) {
            queue_.bulk_pop(buffer_, static_cast<std::size_t>(std::min(pop_bulk_, count)));
            if (buffer_.empty()) throw verification_error("ppq ran empty early");
            if (buffer_.size() > count) throw verification_error("ppq bulk_pop returned too many");
            for (const T& item : buffer_) verifier.accept(item);
            count -= buffer_.size();
        }
    }

    //! Items in the queue.
    std::uint64_t size() const { return queue_.size(); }

private:
    static emflow::ppq_options config_of(const options& o) {
        emflow::ppq_options cfg;
        cfg.memory_bytes = o.memory_bytes;
        cfg.num_threads = o.threads;
        return cfg;
    }

    emflow::parallel_priority_queue<T, ppq_order<T>> queue_;
    unsigned threads_;
    std::uint64_t pop_bulk_;
    std::vector<T> buffer_;
};

template <class T>
run_result run_with(const options& o) {
    ppq_driver<T> d(o);
    run_result r = run_experiment(o, d);
    r.memory_used_bytes = o.memory_bytes;
    r.memory_note = "as requested";
    return r;
}

}  // namespace

run_result run_ppq(const options& o) {
    return o.item_bytes == 8 ? run_with<item_8>(o) : run_with<item_24>(o);
}

}  // namespace pq_bench
