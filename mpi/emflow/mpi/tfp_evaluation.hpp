// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/tfp_evaluation.hpp: time-forward processing of a DAG (pipelines/tfp) whose nodes
// are partitioned over the ranks, on the distributed bulk-parallel PQ (distributed_ppq.hpp).
// Gives every node the value the single-process evaluate_dag() gives it.
//
// Node v belongs to rank (v / block) % p: blocks of consecutive ids dealt round-robin, so every
// window of ids has nodes on every rank. Each rank passes the inputs of its own nodes (in id
// order) and their out-edges (sorted by source), and gets its nodes' values (in id order).
// Messages (target, value) live in the distributed PQ, at the target's owner. Each round takes
// the window [a, a + window) of ids, collectively:
// 1. every rank pops the messages for its nodes in the window (bulk_pop_limit, global limit);
// 2. every rank tells the owners of in-window targets of its nodes' edges how many in-window
//    predecessors they wait for (an all-to-all);
// 3. waves: every rank evaluates its window nodes that wait for nobody, sends the values along
//    in-window edges in an all-to-all (which releases their targets) and keeps the messages
//    for later windows; until no rank has a window node left (the longest path inside the
//    window bounds the number of waves);
// 4. the kept messages go into the distributed PQ (bulk_push: routed to their owners).
//
//   auto stats = emflow::mpi::evaluate_dag(world, n, my_inputs, my_edges, my_values, cfg);
#pragma once

#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/distributed_ppq.hpp>
#include <emflow/nodes/streamify.hpp>
#include <emflow/pipelines/tfp/dag.hpp>
#include <emflow/pipelines/tfp/dag_evaluation.hpp>
#include <emflow/vector_appender.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace emflow::mpi {

//! Settings of the distributed evaluation.
struct dag_evaluation_options {
    ppq_options queue;               //!< each rank's message queue
    exchange_options exchange;       //!< the exchanges of the queue's bulk pushes
    std::uint64_t window = 1 << 14;  //!< node ids per round
    std::uint64_t block = 256;       //!< consecutive ids per owner block
    unsigned work = 0;               //!< hashing rounds per node (dag.hpp, node_value)
};

//! What the distributed evaluation did on this rank.
struct dag_evaluation_stats {
    std::uint64_t windows = 0;          //!< rounds
    std::uint64_t waves = 0;            //!< waves over all rounds
    std::uint64_t messages_popped = 0;  //!< messages this rank took from the queue
};

//! The rank owning node v.
inline int dag_node_owner(std::uint64_t v, std::uint64_t block, int ranks) {
    return int((v / block) % std::uint64_t(ranks));
}

//! This rank's part of a DAG that every rank holds whole (tests, benchmarks, graphs small enough
//! to read everywhere): appends the inputs of its nodes (in id order) to my_inputs and their
//! out-edges to my_edges, the input evaluate_dag() takes.
template <class NodeVector, class EdgeVector>
void select_rank_part(const communicator& comm, std::uint64_t block, const NodeVector& inputs,
                      const EdgeVector& edges, NodeVector& my_inputs, EdgeVector& my_edges) {
    if (block == 0)
        throw std::invalid_argument("emflow::mpi::select_rank_part: block must be >= 1");
    std::uint64_t v = 0;
    for (auto it = inputs.cbegin(); it != inputs.cend(); ++it, ++v)
        if (dag_node_owner(v, block, comm.size()) == comm.rank()) my_inputs.push_back(*it);
    for (auto it = edges.cbegin(); it != edges.cend(); ++it)
        if (dag_node_owner(it->source, block, comm.size()) == comm.rank()) my_edges.push_back(*it);
}

namespace detail {

//! Places messages at their target's owner.
struct message_owner {
    std::uint64_t block;
    int ranks;
    int operator()(const pipelines::tfp::message& m) const {
        return dag_node_owner(m.target, block, ranks);
    }
};

//! One rank's part of a distributed evaluation: its readers, writer and window arrays.
template <class NodeVector, class EdgeVector, class ValueVector>
class distributed_window_evaluator {
public:
    distributed_window_evaluator(const communicator& comm, const NodeVector& inputs,
                                 const EdgeVector& edges, ValueVector& values,
                                 const dag_evaluation_options& cfg)
        : comm_(comm), cfg_(cfg), owner_{cfg.block, comm.size()}, inputs_in_(inputs),
          edges_in_(edges), values_out_(values) {}

    //! Reads this rank's nodes of [a, b) and applies their messages (local: may throw on bad
    //! input before the collective part).
    void prepare(std::uint64_t a, std::uint64_t b,
                 const std::vector<pipelines::tfp::message>& popped) {
        read_window(a, b);
        for (const pipelines::tfp::message& m : popped) {
            std::size_t i = index_of(m.target);
            best_[i] = std::max(best_[i], m.value);
        }
    }

    //! Collective: evaluates the prepared nodes of the window ending at b; returns the messages
    //! for later windows.
    std::vector<pipelines::tfp::message> evaluate(std::uint64_t b, dag_evaluation_stats& stats) {
        // How many in-window predecessors each window node waits for.
        std::vector<pipelines::tfp::message> counts;
        for (const pipelines::tfp::dag_edge& e : edges_)
            if (e.target < b) counts.push_back({e.target, 0});
        for (const pipelines::tfp::message& m : route_all(counts)) ++waiting_[index_of(m.target)];

        std::vector<pipelines::tfp::message> later, inside;
        std::uint64_t left = ids_.size();
        while (comm_.allreduce_sum(left) > 0) {
            ++stats.waves;
            inside.clear();
            std::vector<std::size_t> ready;
            for (std::size_t i = 0; i < ids_.size(); ++i)
                if (!done_[i] && waiting_[i] == 0) ready.push_back(i);
            for (std::size_t i : ready) {
                std::int64_t v = pipelines::tfp::node_value(input_[i], best_[i], cfg_.work);
                value_[i] = v;
                done_[i] = true;
                --left;
                for (std::size_t k = edge_start_[i]; k < edge_start_[i + 1]; ++k) {
                    const pipelines::tfp::dag_edge& e = edges_[k];
                    (e.target < b ? inside : later).push_back({e.target, v + e.weight});
                }
            }
            for (const pipelines::tfp::message& m : route_all(inside)) {
                std::size_t i = index_of(m.target);
                best_[i] = std::max(best_[i], m.value);
                --waiting_[i];
            }
        }
        for (std::int64_t v : value_) values_out_ << v;
        return later;
    }

    //! Flushes the values written.
    void finish() { values_out_.finish(); }

private:
    //! This rank's nodes of [a, b), their inputs and out-edges.
    void read_window(std::uint64_t a, std::uint64_t b) {
        ids_.clear();
        const std::uint64_t block = cfg_.block;
        for (std::uint64_t first = a - a % block; first < b; first += block)
            if (dag_node_owner(first, block, comm_.size()) == comm_.rank())
                for (std::uint64_t v = std::max(first, a); v < std::min(first + block, b); ++v)
                    ids_.push_back(v);
        const std::size_t m = ids_.size();
        input_.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            if (inputs_in_.empty())
                throw std::invalid_argument("emflow::mpi::evaluate_dag: too few node inputs");
            inputs_in_ >> input_[i];
        }
        edges_.clear();
        edge_start_.assign(m + 1, 0);
        for (; !edges_in_.empty() && edges_in_->source < b; ++edges_in_) {
            const pipelines::tfp::dag_edge& e = *edges_in_;
            if (e.source < a || e.target <= e.source ||
                dag_node_owner(e.source, block, comm_.size()) != comm_.rank())
                throw std::invalid_argument(
                    "emflow::mpi::evaluate_dag: edges must leave this rank's nodes, "
                    "go to higher ids and be sorted by source");
            edges_.push_back(e);
            ++edge_start_[index_of(e.source) + 1];
        }
        for (std::size_t i = 0; i < m; ++i) edge_start_[i + 1] += edge_start_[i];
        best_.assign(m, pipelines::tfp::no_predecessor);
        waiting_.assign(m, 0);
        done_.assign(m, false);
        value_.assign(m, 0);
    }

    std::size_t index_of(std::uint64_t v) const {
        auto it = std::lower_bound(ids_.begin(), ids_.end(), v);
        if (it == ids_.end() || *it != v)
            throw std::logic_error("emflow::mpi::evaluate_dag: a message for another rank");
        return std::size_t(it - ids_.begin());
    }

    //! Collective: sends each message to its target's owner; returns what this rank received.
    //! Waves are synchronous and small: one all-to-all each, not a stream (exchange).
    std::vector<pipelines::tfp::message> route_all(
        const std::vector<pipelines::tfp::message>& out) {
        std::vector<std::vector<pipelines::tfp::message>> per_rank(std::size_t(comm_.size()));
        for (const pipelines::tfp::message& m : out) per_rank[std::size_t(owner_(m))].push_back(m);
        return comm_.alltoallv(per_rank);
    }

    const communicator& comm_;
    const dag_evaluation_options& cfg_;
    message_owner owner_;
    typename NodeVector::bufreader_type inputs_in_;
    typename EdgeVector::bufreader_type edges_in_;
    vector_appender<ValueVector> values_out_;  // a full disk is an exception here
    std::vector<std::uint64_t> ids_;
    std::vector<std::int64_t> input_, best_, value_;
    std::vector<std::uint32_t> waiting_;
    std::vector<bool> done_;
    std::vector<pipelines::tfp::dag_edge> edges_;
    std::vector<std::size_t> edge_start_;
};

}  // namespace detail

//! Collective: evaluates the DAG of n nodes whose parts the ranks hold (file comment) into
//! values (this rank's nodes, in id order; resized). Throws on every rank if any rank failed.
template <class NodeVector, class EdgeVector, class ValueVector>
dag_evaluation_stats evaluate_dag(const communicator& comm, std::uint64_t n,
                                  const NodeVector& inputs, const EdgeVector& edges,
                                  ValueVector& values,
                                  const dag_evaluation_options& cfg = dag_evaluation_options()) {
    if (cfg.window == 0 || cfg.block == 0)
        throw std::invalid_argument("emflow::mpi::evaluate_dag: window and block must be >= 1");
    dag_evaluation_stats stats;
    values.clear();
    values.resize(inputs.size());
    distributed_ppq<pipelines::tfp::message, pipelines::tfp::later_target, detail::message_owner>
        queue(comm, detail::message_owner{cfg.block, comm.size()}, pipelines::tfp::later_target(),
              cfg.queue, cfg.exchange);
    std::exception_ptr error;
    {
        detail::distributed_window_evaluator<NodeVector, EdgeVector, ValueVector> evaluator(
            comm, inputs, edges, values, cfg);
        std::vector<pipelines::tfp::message> popped;
        for (std::uint64_t a = 0; a < n;) {
            const std::uint64_t b = std::min(n, a + cfg.window);
            queue.bulk_pop_limit(popped,
                                 pipelines::tfp::message{b, pipelines::tfp::no_predecessor});
            stats.messages_popped += popped.size();
            try {
                evaluator.prepare(a, b, popped);
            } catch (...) {
                error = std::current_exception();
            }
            agree_on_errors(comm, error);
            std::vector<pipelines::tfp::message> later = evaluator.evaluate(b, stats);
            queue.bulk_push(streamify(later));
            ++stats.windows;
            a = b;
        }
        evaluator.finish();
    }
    if (!queue.empty())
        throw std::logic_error("emflow::mpi::evaluate_dag: messages left after the last node");
    return stats;
}

}  // namespace emflow::mpi
