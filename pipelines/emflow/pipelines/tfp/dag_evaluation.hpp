// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/tfp/dag_evaluation.hpp: external-memory time-forward processing of a DAG
// (Chiang et al.), bulk-parallel on the PPQ.
//
// Every node sends its value along its out-edges as messages (target id, value) into a
// parallel_priority_queue keyed by target id (smallest first). Each round of the time-forward
// loop (emflow/pipelines/tfp/time_forward.hpp) extracts all messages for a window of consecutive
// ids [a, b), b chosen by a limit window (fixed or adaptive, emflow/pipelines/tfp/limit_rules.hpp),
// and evaluates the window's nodes: edges inside the window are delivered in RAM, level by level of
// the window's own dependency structure, each level in parallel with tbb::parallel_for; edges
// leaving the window are bulk-pushed as messages. A "scan token" message (target b, no value) keeps
// the queue non-empty while nodes remain, so nodes without predecessors are reached too. Values are
// written in id order to an external vector.
//
// One budget (evaluation_options::memory_bytes) covers the whole evaluation: the vectors' streams,
// the window's arrays (max_window, up to half the budget), and the queue with the bulk held
// outside it: the queue gets three quarters of what the streams and the window leave, and a
// bulk at most a third of the queue's (max_bulk). The adaptive window aims lower (a quarter of
// the queue's: emflow/pipelines/tfp/limit_rules.hpp), but a dense region can put more messages into
// one window; such a bulk is cut at max_bulk and its window evaluated in two or more rounds.
//
//   emflow::pipelines::tfp::evaluation_options cfg;  cfg.memory_bytes = 64 << 20;
//   emflow::pipelines::tfp::adaptive_window
//   window(emflow::pipelines::tfp::default_target_bulk(cfg)); emflow::pipelines::tfp::value_vector
//   values; auto stats = emflow::pipelines::tfp::evaluate_dag(inputs, edges, values, window, cfg);
#pragma once

#include <emflow/memory_budget.hpp>
#include <emflow/pipelines/tfp/dag.hpp>
#include <emflow/pipelines/tfp/limit_rules.hpp>
#include <emflow/pipelines/tfp/time_forward.hpp>
#include <emflow/ppq.hpp>
#include <emflow/progress.hpp>
#include <emflow/vector_appender.hpp>

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace emflow::pipelines::tfp {

//! A value sent along an edge to its target; value == no_predecessor marks the scan token.
struct message {
    std::uint64_t target;  //!< the receiving node
    std::int64_t value;    //!< the sender's value plus the edge weight
};

//! Pop order of messages: smallest target first.
struct later_target {
    //! True if a comes after b.
    bool operator()(const message& a, const message& b) const { return a.target > b.target; }
};

//! The queue of messages.
using message_queue = parallel_priority_queue<message, later_target>;

//! Settings of evaluate_dag.
struct evaluation_options {
    //! The budget of the whole evaluation (file comment); 0: queue.memory_bytes and max_window
    //! as set, the rest not counted.
    std::size_t memory_bytes = 0;
    ppq_options queue;                    //!< the message queue (its memory budget)
    unsigned work = 0;                    //!< hashing rounds per node (dag.hpp, node_value)
    std::uint64_t max_window = 1u << 18;  //!< most nodes per window (bounds the window's RAM)
    progress* report = nullptr;           //!< progress of the evaluation (nodes); null: none
    //! Most messages per round; 0: with a budget the third of the queue's that the budget counts
    //! for the bulk (file comment), without one unbounded. A window whose messages do not fit is
    //! evaluated up to its last target and the rest in the next round.
    std::size_t max_bulk = 0;
};

//! Bytes of a window's arrays per node (values, inputs, levels, order, edge offsets, and two
//! out-edges on average).
inline constexpr std::size_t window_bytes_per_node = 8 * 8 + 2 * sizeof(dag_edge);

//! Bytes of the evaluation's vector streams (inputs and values read or written, edges read).
inline std::size_t evaluation_stream_bytes() {
    return vector_stream_bytes<node_vector>() * 2 + vector_stream_bytes<edge_vector>();
}

//! The bytes a budget counts for the queue of queue_bytes and the bulk held outside it (a third
//! of the queue's: file comment).
inline std::size_t queue_and_bulk_bytes(std::size_t queue_bytes) { return queue_bytes / 3 * 4; }

//! The most messages per round that a queue of queue_bytes leaves room for (file comment).
inline std::size_t bulk_messages(std::size_t queue_bytes) {
    return queue_bytes / 3 / sizeof(message);
}

//! cfg with the queue's budget and max_window derived from cfg.memory_bytes (file comment);
//! cfg itself if it has no budget. Throws config_error if the budget is too small.
inline evaluation_options resolve_budget(evaluation_options cfg) {
    if (cfg.memory_bytes == 0) return cfg;
    const std::size_t streams = evaluation_stream_bytes();
    const std::size_t queue_min = 8 << 20;
    // The window may take half the budget, as long as the queue keeps its least: fewer, larger
    // rounds gain more than queue memory beyond a few MiB (bench/memory/README.md).
    const std::size_t rest = cfg.memory_bytes - std::min(cfg.memory_bytes, streams + 2 * queue_min);
    const std::size_t window_cap = std::min(cfg.memory_bytes / 2, rest);
    cfg.max_window =
        std::clamp<std::uint64_t>(window_cap / window_bytes_per_node, 1024, cfg.max_window);
    const std::size_t window = cfg.max_window * window_bytes_per_node;
    if (cfg.memory_bytes < streams + window + 2 * queue_min)
        throw config_error("emflow::pipelines::tfp: memory budget of " +
                           format_mib(cfg.memory_bytes, false) + " is below the " +
                           format_mib(streams + window + 2 * queue_min, true) +
                           " the evaluation needs at least: vector streams " +
                           format_mib(streams, true) + "; window " + format_mib(window, true) +
                           "; queue and bulks " + format_mib(2 * queue_min, true));
    cfg.queue.memory_bytes = (cfg.memory_bytes - streams - window) / 4 * 3;
    if (cfg.max_bulk == 0) cfg.max_bulk = bulk_messages(cfg.queue.memory_bytes);
    return cfg;
}

//! The target bulk of an adaptive_window driving evaluate_dag with cfg, derived from the queue's
//! memory budget (emflow::pipelines::tfp::memory_target_bulk: 2^19 messages for a 32 MiB queue).
//! Not tuned for a graph: why bulks this large pay off is explained in
//! emflow/pipelines/tfp/limit_rules.hpp.
inline std::size_t default_target_bulk(const evaluation_options& cfg) {
    return memory_target_bulk(resolve_budget(cfg).queue.memory_bytes, sizeof(message));
}

namespace detail {

//! The limit of a window: key_limit_rule's, capped at max_window nodes and at n.
template <typename Window>
class window_limit_rule {
public:
    window_limit_rule(Window& w, std::uint64_t max_window, std::uint64_t n)
        : window_(w), max_window_(max_window), n_(n) {}
    message next_limit(const message& top) const {
        const std::uint64_t width = std::min<std::uint64_t>(window_.width(), max_window_);
        return message{top.target + std::min(width, n_ - top.target), no_predecessor};
    }
    void observe(std::size_t bulk, bool truncated) { window_.observe(bulk, truncated); }

private:
    Window& window_;
    std::uint64_t max_window_, n_;
};

inline void atomic_max(std::atomic<std::int64_t>& a, std::int64_t v) {
    std::int64_t cur = a.load(std::memory_order_relaxed);
    while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

//! The state of one evaluation: sequential readers of inputs and edges, the writer of values,
//! and the arrays of the current window.
template <typename NodeVector, typename EdgeVector, typename ValueVector>
class window_evaluator {
public:
    window_evaluator(const NodeVector& inputs, const EdgeVector& edges, ValueVector& values,
                     unsigned work, std::uint64_t max_window)
        : n_(inputs.size()), most_nodes_(std::size_t(max_window) + 1), work_(work), inputs_(inputs),
          edges_(edges), values_(values) {}

    //! Evaluates the window [next_node(), limit.target) from the bulk of its messages; a
    //! truncated bulk only up to its last target, whose messages it folds into one for the next
    //! round (a node takes the largest of its messages).
    void process(const time_forward_bulk<message_queue>& bulk) {
        const auto& items = bulk.items();
        const std::uint64_t a = next_;
        std::uint64_t b = bulk.limit()->target;
        if (bulk.truncated()) {
            b = items.back().target;
            std::int64_t most = no_predecessor;
            for (auto it = items.rbegin(); it != items.rend() && it->target == b; ++it)
                most = std::max(most, it->value);
            bulk.push(message{b, most});
            if (b == a) return;
        }
        const std::uint64_t w = b - a;
        if (best_capacity_ < w) {
            const std::size_t capacity = grown(best_capacity_, w);
            best_.reset();  // the old array goes before the new one comes
            best_capacity_ = 0;
            best_.reset(new std::atomic<std::int64_t>[capacity]);
            best_capacity_ = capacity;
        }
        for (std::uint64_t i = 0; i < w; ++i)
            best_[i].store(no_predecessor, std::memory_order_relaxed);
        for (const message& m : items) {
            if (m.target < a || m.target >= bulk.limit()->target)
                throw std::logic_error("emflow::pipelines::tfp: a message outside its window");
            if (m.target < b) atomic_max(best_[m.target - a], m.value);
        }
        read_window(a, b);
        level_order(a, b);
        fit(value_, w);
        value_.assign(w, 0);
        for (std::size_t l = 0; l + 1 < level_start_.size(); ++l) {
            tbb::parallel_for(level_start_[l], level_start_[l + 1], [&](std::size_t k) {
                const std::uint32_t i = order_[k];
                const std::int64_t v =
                    node_value(input_[i], best_[i].load(std::memory_order_relaxed), work_);
                value_[i] = v;
                for (std::size_t e = edge_start_[i]; e < edge_start_[i + 1]; ++e) {
                    const dag_edge& edge = window_edges_[e];
                    if (edge.target < b)
                        atomic_max(best_[edge.target - a], v + edge.weight);
                    else
                        bulk.push(message{edge.target, v + edge.weight});
                }
            });
        }
        for (std::int64_t v : value_) values_out_ << v;
        if (b < n_) bulk.push(message{b, no_predecessor});
        next_ = b;
    }

    //! First node not evaluated yet.
    std::uint64_t next_node() const { return next_; }
    //! Flushes the values written.
    void finish() { values_out_.finish(); }

private:
    //! The capacity for w items of an array of capacity c (c < w): a window a little wider than
    //! every earlier one grows it by a step, not to exactly w (which would reallocate, and fault
    //! in fresh pages, at each of a run of slowly widening windows); at most most_nodes_.
    std::size_t grown(std::size_t c, std::size_t w) const {
        return std::min(std::max(w, c + c / 2), std::max(w, most_nodes_));
    }
    //! Room for w items in v, grown as grown() says.
    template <class V>
    void fit(V& v, std::size_t w) const {
        if (v.capacity() < w) v.reserve(grown(v.capacity(), w));
    }

    //! Reads the window's inputs and out-edges (edges are sorted by source).
    void read_window(std::uint64_t a, std::uint64_t b) {
        const std::uint64_t w = b - a;
        fit(input_, w);
        input_.resize(w);
        for (std::uint64_t i = 0; i < w; ++i) inputs_in_ >> input_[i];
        window_edges_.clear();
        fit(edge_start_, w + 1);
        edge_start_.assign(w + 1, 0);
        for (; !edges_in_.empty() && edges_in_->source < b; ++edges_in_) {
            const dag_edge& e = *edges_in_;
            if (e.source < a || e.target <= e.source || e.target >= n_)
                throw std::invalid_argument(
                    "emflow::pipelines::tfp: edges must go from lower to higher ids, sorted by "
                    "source");
            window_edges_.push_back(e);
            ++edge_start_[e.source - a + 1];
        }
        for (std::uint64_t i = 0; i < w; ++i) edge_start_[i + 1] += edge_start_[i];
    }

    //! Orders the window's nodes by level (longest path inside the window) for parallel waves.
    void level_order(std::uint64_t a, std::uint64_t b) {
        const std::uint64_t w = b - a;
        fit(level_, w);
        level_.assign(w, 0);
        std::uint32_t levels = w ? 1 : 0;
        for (const dag_edge& e : window_edges_) {  // in source order: a source's level is final
            if (e.target >= b) continue;
            std::uint32_t& l = level_[e.target - a];
            l = std::max(l, level_[e.source - a] + 1);
            levels = std::max(levels, l + 1);
        }
        level_start_.assign(levels + 1, 0);
        for (std::uint32_t l : level_) ++level_start_[l + 1];
        for (std::uint32_t l = 0; l < levels; ++l) level_start_[l + 1] += level_start_[l];
        fit(order_, w);
        order_.resize(w);
        std::vector<std::size_t> pos(level_start_.begin(), level_start_.end() - 1);
        for (std::uint32_t i = 0; i < w; ++i) order_[pos[level_[i]]++] = i;
    }

    std::uint64_t n_, next_ = 0;
    std::size_t most_nodes_;  //!< the most items of a window's arrays (nodes + 1)
    unsigned work_;
    const NodeVector& inputs_;
    const EdgeVector& edges_;
    ValueVector& values_;
    typename NodeVector::bufreader_type inputs_in_{inputs_};
    typename EdgeVector::bufreader_type edges_in_{edges_};
    vector_appender<ValueVector> values_out_{values_};   // a full disk is an exception here
    std::unique_ptr<std::atomic<std::int64_t>[]> best_;  //!< best message per node
    std::size_t best_capacity_ = 0;
    std::vector<std::int64_t> input_, value_;
    std::vector<dag_edge> window_edges_;
    std::vector<std::size_t> edge_start_, level_start_;
    std::vector<std::uint32_t> level_, order_;
};

}  // namespace detail

//! Evaluates every node's value (dag.hpp) by time-forward processing into `values` (resized to
//! the number of nodes); `window` (fixed_window, adaptive_window) chooses the id range of each
//! bulk. Returns the loop's statistics (bulk sizes in messages).
template <typename NodeVector, typename EdgeVector, typename ValueVector, typename Window>
time_forward_stats evaluate_dag(const NodeVector& inputs, const EdgeVector& edges,
                                ValueVector& values, Window& window,
                                const evaluation_options& config = evaluation_options()) {
    const evaluation_options cfg = resolve_budget(config);
    if (cfg.memory_bytes > 0) memory_plan::return_freed_memory_to_system();
    if (cfg.max_window == 0 || cfg.max_window > (std::uint64_t(1) << 31))
        throw std::invalid_argument(
            "emflow::pipelines::tfp::evaluate_dag: max_window must be in [1, 2^31]");
    if (cfg.max_bulk == 1)  // a round must take two messages of a node to fold them into one
        throw std::invalid_argument(
            "emflow::pipelines::tfp::evaluate_dag: max_bulk must be 0 (unbounded) or at least 2");
    const std::uint64_t n = inputs.size();
    values.clear();
    values.resize(n);
    message_queue queue(later_target(), cfg.queue);
    detail::window_evaluator<NodeVector, EdgeVector, ValueVector> evaluator(
        inputs, edges, values, cfg.work, cfg.max_window);
    if (n > 0) queue.push(message{0, no_predecessor});
    detail::window_limit_rule<Window> rule(window, cfg.max_window, n);
    progress::phase ph =
        begin_phase(cfg.report, "time-forward evaluation", n * sizeof(std::int64_t));
    const time_forward_stats stats = time_forward_loop(
        queue, rule,
        [&](const time_forward_bulk<message_queue>& bulk) {
            const std::uint64_t before = evaluator.next_node();
            evaluator.process(bulk);
            const std::uint64_t done = evaluator.next_node() - before;
            ph.add(done, done * sizeof(std::int64_t));
        },
        cfg.max_bulk ? cfg.max_bulk : SIZE_MAX);
    evaluator.finish();
    if (evaluator.next_node() != n)
        throw std::logic_error(
            "emflow::pipelines::tfp::evaluate_dag: the queue ran empty before the end");
    return stats;
}

}  // namespace emflow::pipelines::tfp
