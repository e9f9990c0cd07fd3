// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/exchange.hpp: the exchange node. Each rank routes its items to the rank chosen by
// rank_of(item) and pulls the items every rank routed to it (from each sender in its order,
// senders interleaved). Messages are batched, sent and received by a progress thread while the
// local pipeline runs; a sender whose buffers to a peer are all in flight waits (suspended, not
// blocking a thread), nothing is dropped; each rank's end of stream reaches every peer. The
// engine and its protocol: exchange_channel.hpp.
//
//   emflow::mpi::exchange<item> x(comm);                 // collective, before the graph runs
//   auto mine = emflow::mpi::route(src, x, [p](const item& i) { return int(i.key % p); });
//   materialize(mine | sort(cmp, budget), out);          // or x.sender(f) / x.receiver() apart
//
// One graph per exchange, with one sender and one receiver on every rank (route() is both).
// rank_of is called once per item, in stream order, by one task at a time.
#pragma once

#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/exchange_channel.hpp>
#include <emflow/node.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace emflow::mpi {

template <class T, class RankOf>
class exchange_push_node;
template <class T>
class exchange_pull_node;

//! One exchange of items of type T among the ranks of a communicator.
template <class T>
class exchange {
    static_assert(std::is_trivially_copyable_v<T>, "exchanged items are sent as bytes");
    static_assert(alignof(T) <= 16, "items are read in place from message buffers");

public:
    using value_type = T;  //!< item type

    //! Collective over comm: sets up the engine and starts receiving.
    explicit exchange(const communicator& comm, exchange_options opt = {})
        : channel_(std::make_unique<exchange_channel>(comm, sizeof(T), opt)) {}

    //! The push side: routes each pushed item to rank_of(item).
    template <class RankOf>
    exchange_push_node<T, RankOf> sender(RankOf rank_of) {
        return exchange_push_node<T, RankOf>(*channel_, std::move(rank_of));
    }
    //! The pull side: the items routed to this rank.
    exchange_pull_node<T> receiver() { return exchange_pull_node<T>(*channel_); }

    //! What was moved so far on this rank.
    exchange_stats stats() const { return channel_->stats(); }
    //! Number of ranks.
    int size() const { return channel_->size(); }
    //! This rank.
    int rank() const { return channel_->rank(); }

private:
    std::unique_ptr<exchange_channel> channel_;
};

//! Push node: items to the ranks chosen by rank_of, in messages of items_per_message items.
template <class T, class RankOf>
class exchange_push_node {
public:
    using value_type = T;  //!< element type

    //! Sends through channel.
    exchange_push_node(exchange_channel& channel, RankOf rank_of)
        : channel_(&channel), rank_of_(std::move(rank_of)) {}

    //! Registers the waits, no buffer is taken yet.
    void start(run_context& ctx) {
        ctx_ = &ctx;
        channel_->attach(ctx);
        slot_.assign(std::size_t(channel_->size()), none);
        fill_.assign(slot_.size(), 0);
    }
    //! Routes x.
    void push(const T& x) {
        guarded([&] { route(x); });
    }
    //! Routes n items.
    void push_batch(const T* p, std::size_t n) {
        guarded([&] {
            for (std::size_t i = 0; i < n; ++i) route(p[i]);
        });
    }
    //! Sends the partly filled messages, then the end of stream to every rank.
    void push_stop() {
        guarded([&] {
            for (std::size_t d = 0; d < slot_.size(); ++d)
                if (slot_[d] != none) channel_->submit(int(d), slot_[d], fill_[d]);
            channel_->finish_sending();
        });
    }

    //! Reports a failure of this rank's input to the peers (they get ABORT); idempotent.
    void fail(std::exception_ptr e) { channel_->fail_local(e, ctx_); }

private:
    static constexpr std::size_t none = ~std::size_t(0);

    void route(const T& x) {
        int d = rank_of_(x);
        if (d < 0 || d >= channel_->size())
            throw std::out_of_range("emflow::mpi: rank_of returned " + std::to_string(d) +
                                    ", not a rank of " + std::to_string(channel_->size()));
        std::size_t du = std::size_t(d);
        if (slot_[du] == none) slot_[du] = channel_->take_send_buffer(d, *ctx_);
        std::memcpy(channel_->payload(slot_[du]) + fill_[du] * sizeof(T), &x, sizeof(T));
        if (++fill_[du] == channel_->items_per_message()) {
            channel_->submit(d, slot_[du], fill_[du]);
            slot_[du] = none;
            fill_[du] = 0;
        }
    }

    //! Runs f; on an exception this rank's failure is sent to its peers, then it propagates.
    template <class F>
    void guarded(F&& f) {
        try {
            f();
        } catch (...) {
            fail(std::current_exception());
            throw;
        }
    }

    exchange_channel* channel_;
    RankOf rank_of_;
    run_context* ctx_ = nullptr;
    std::vector<std::size_t> slot_;  // the buffer being filled per destination, or none
    std::vector<std::size_t> fill_;  // items in it
};

//! Pull node: the items routed to this rank, one received message per batch.
template <class T>
class exchange_pull_node {
public:
    using value_type = T;  //!< element type

    //! Receives through channel.
    explicit exchange_pull_node(exchange_channel& channel) : channel_(&channel) {}

    //! Registers the waits.
    void start(run_context& ctx) {
        ctx_ = &ctx;
        channel_->attach(ctx);
    }
    //! True once every rank's end of stream and all its items arrived (waits for messages).
    bool empty() {
        while (pos_ == len_) {
            if (ended_) return true;
            const std::byte* items = nullptr;
            try {
                ended_ = !channel_->next(*ctx_, items, len_);
            } catch (...) {
                channel_->fail_local(std::current_exception(), ctx_);
                throw;
            }
            data_ = reinterpret_cast<const T*>(items);
            pos_ = 0;
            if (ended_) len_ = 0;
        }
        return false;
    }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    exchange_pull_node& operator++() { return *this += 1; }
    //! Items left in the current message.
    std::size_t batch_length() { return empty() ? 0 : len_ - pos_; }
    //! The current message's items.
    const T* batch_begin() { return data_ + pos_; }
    //! Advances by n <= batch_length().
    exchange_pull_node& operator+=(std::size_t n) {
        pos_ += n;
        return *this;
    }

private:
    exchange_channel* channel_;
    run_context* ctx_ = nullptr;
    const T* data_ = nullptr;
    std::size_t pos_ = 0, len_ = 0;
    bool ended_ = false;
};

//! Pull node: src's items routed by rank_of (src is read by its own segment), and out the items
//! every rank routed here.
template <class Src, class RankOf>
class route_node {
public:
    using value_type = value_t<Src>;  //!< element type

    //! src exchanged through x.
    route_node(Src&& src, exchange<value_type>& x, RankOf rank_of)
        : src_(std::forward<Src>(src)), sender_(x.sender(std::move(rank_of))),
          receiver_(x.receiver()) {}

    //! Starts src and both sides; spawns the sending segment.
    void start(run_context& ctx) {
        src_.start(ctx);
        sender_.start(ctx);
        receiver_.start(ctx);
        ctx_ = &ctx;
        scratch_.resize(default_chunk);
        spawn_send();
    }
    //! True once every rank's items for this rank arrived.
    bool empty() { return receiver_.empty(); }
    //! Current element.
    const value_type& operator*() { return *receiver_; }
    //! Advances by one.
    route_node& operator++() {
        ++receiver_;
        return *this;
    }
    //! Items left in the current message.
    std::size_t batch_length() { return receiver_.batch_length(); }
    //! The current message's items.
    const value_type* batch_begin() { return receiver_.batch_begin(); }
    //! Advances by n <= batch_length().
    route_node& operator+=(std::size_t n) {
        receiver_ += n;
        return *this;
    }

private:
    //! One task sends about one chunk of messages' worth of src, then re-spawns itself.
    void spawn_send() {
        ctx_->spawn([this] {
            std::uint64_t done = 0;
            try {
                while (done < send_chunk) {
                    if (src_.empty()) {
                        sender_.push_stop();
                        return;
                    }
                    std::size_t n = std::min(src_.batch_length(), scratch_.size());
                    with_contiguous(
                        src_.batch_begin(), n, scratch_.data(),
                        [&](const value_type* p, std::size_t k) { sender_.push_batch(p, k); });
                    src_ += n;
                    done += n;
                }
            } catch (...) {
                sender_.fail(std::current_exception());  // e.g. the source threw
                throw;
            }
            spawn_send();
        });
    }

    static constexpr std::uint64_t send_chunk = std::uint64_t(1) << 16;

    stored_t<Src> src_;
    exchange_push_node<value_type, RankOf> sender_;
    exchange_pull_node<value_type> receiver_;
    run_context* ctx_ = nullptr;
    std::vector<value_type> scratch_;
};

//! src's items routed to rank_of(item) through x; pulls the items routed to this rank.
template <class Src, class RankOf, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
auto route(Src&& src, exchange<value_t<Src>>& x, RankOf rank_of) {
    return route_node<Src, RankOf>(std::forward<Src>(src), x, std::move(rank_of));
}

//! Stage for `src | route(x, rank_of)`.
template <class T, class RankOf>
auto route(exchange<T>& x, RankOf rank_of) {
    return make_stage(
        [&x, rank_of](auto&& src) { return route(std::forward<decltype(src)>(src), x, rank_of); });
}

}  // namespace emflow::mpi
