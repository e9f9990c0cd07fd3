// SPDX-License-Identifier: BSL-1.0
// emflow/mpi/exchange_channel.hpp: the message engine under the exchange nodes (exchange.hpp).
// Items are raw bytes here; the nodes give them a type.
//
// Protocol, per exchange (its own duplicated communicator, one tag):
// * A message is a 32-byte header and a payload. DATA carries items; the FINAL message a rank
//   sends to each peer (itself included) after its data says END (with the number of items it
//   sent to that peer) or ABORT (with the items sent so far, the rank where the error was raised
//   and the error text). MPI's non-overtaking rule keeps a peer's final behind its data; a
//   receiver is done with a peer when it has its final and all the items it announced (a large
//   message matched earlier may complete after the final).
// * Bounded memory: each peer has send_buffers_per_peer message buffers (the sender fills one,
//   the others are in flight); a sender needing a buffer when all are busy waits (its task is
//   suspended, see flow_runtime.hpp). Sends are synchronous-mode (MPI_Issend), so a message
//   completes only once the receiver posted a receive for it: the receiver, which posts
//   receive_buffers_per_peer receives per peer and reposts a buffer only once its consumer has
//   read it, bounds what is sent to it, whatever MPI's eager limit.
// * One progress thread per exchange (not an arena thread: arena threads never wait in MPI)
//   posts the queued sends, reposts receives, tests every request with MPI_Testsome, and wakes
//   the waiting tasks. It sleeps on a condition variable, woken by new work, with a backoff
//   while requests are pending.
// * Faults: a rank that fails (its source throws, its graph is cancelled, or the exchange is
//   destroyed before its end of stream) sends ABORT instead of END to every peer it has not
//   finished, and from then on discards what it receives. A receiver of ABORT records the
//   remote error, its waiting tasks throw it, and it discards further data. Every rank keeps
//   receiving until it has every peer's final, so every send completes and no rank hangs.
//   An MPI error in the progress thread is thrown by the waiting tasks of its rank only (MPI
//   may be unusable by then): run_main() then ends every rank with MPI_Abort.
#pragma once

#include <emflow/flow_runtime.hpp>
#include <emflow/mpi/agree.hpp>
#include <emflow/mpi/communicator.hpp>
#include <emflow/mpi/error.hpp>
#include <emflow/mpi/stats.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace emflow::mpi {

//! Message sizes and buffer counts of an exchange.
struct exchange_options {
    std::size_t message_bytes = 256 << 10;     //!< item bytes per message (at least one item)
    std::size_t send_buffers_per_peer = 3;     //!< one being filled, the rest in flight (>= 2)
    std::size_t receive_buffers_per_peer = 2;  //!< receives posted per source rank (>= 1)
};

//! What an exchange moved on this rank.
struct exchange_stats {
    std::uint64_t items_sent = 0;      //!< items this rank sent (to every rank, itself too)
    std::uint64_t messages_sent = 0;   //!< data messages sent
    std::uint64_t bytes_sent = 0;      //!< bytes of all messages sent, headers included
    std::uint64_t items_received = 0;  //!< items received from every rank
    double send_wait_seconds = 0;      //!< time senders waited for a free buffer
    double receive_wait_seconds = 0;   //!< time the receiver waited for a message
};

//! The engine of one exchange; see the file comment.
class exchange_channel {
public:
    static constexpr std::size_t header_bytes = 32;  //!< payload offset; keeps 16-byte alignment

    //! Collective over comm: duplicates it, allocates the buffers and starts the progress
    //! thread (which posts the receives at once).
    exchange_channel(const communicator& comm, std::size_t item_bytes, exchange_options opt)
        : comm_(comm.duplicate()), peers_(std::size_t(comm_.size())), item_bytes_(item_bytes),
          items_per_message_(std::max<std::size_t>(1, opt.message_bytes / item_bytes)),
          send_per_peer_(opt.send_buffers_per_peer), peer_(peers_) {
        if (opt.send_buffers_per_peer < 2 || opt.receive_buffers_per_peer < 1)
            throw std::invalid_argument(
                "emflow::mpi: an exchange needs at least 2 send buffers "
                "and 1 receive buffer per peer");
        // Room for the items, and for an ABORT's error text.
        buffer_bytes_ = header_bytes + std::max<std::size_t>(items_per_message_ * item_bytes, 1024);
        if (buffer_bytes_ > std::size_t(std::numeric_limits<int>::max()))
            throw std::invalid_argument("emflow::mpi: exchange messages must be below 2 GiB");
        std::size_t sends = peers_ * send_per_peer_;
        // One more than posted per peer: the message the consumer is reading.
        std::size_t recvs = peers_ * opt.receive_buffers_per_peer + 1;
        // Slots: the data buffers of each peer, one final buffer per peer, then the receives.
        final_base_ = sends;
        recv_base_ = sends + peers_;
        buffers_.resize(recv_base_ + recvs);
        for (auto& b : buffers_) b.reset(new std::byte[buffer_bytes_]);
        requests_.assign(buffers_.size(), MPI_REQUEST_NULL);
        for (std::size_t d = 0; d < peers_; ++d)
            for (std::size_t k = 0; k < send_per_peer_; ++k)
                peer_[d].free.push_back(d * send_per_peer_ + k);
        for (std::size_t j = recv_base_; j < buffers_.size(); ++j) to_receive_.push_back(j);
        thread_ = std::thread([this] { progress_loop(); });
    }
    exchange_channel(const exchange_channel&) = delete;
    exchange_channel& operator=(const exchange_channel&) = delete;
    //! An exchange left before its end of stream aborts (peers get ABORT); waits until every
    //! peer finished with this rank, so no peer is left waiting.
    ~exchange_channel() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!local_failed_ && !(finals_queued_ && consumer_done_)) {
                if (!finals_queued_)
                    record_local_failure(comm_.rank(),
                                         "the exchange was destroyed before its end of stream");
                else
                    abandoned_ = true;  // its END was sent: only what is received is dropped
            }
        }
        wake_.notify_one();
        thread_.join();
    }

    //! Number of ranks.
    int size() const { return comm_.size(); }
    //! This rank.
    int rank() const { return comm_.rank(); }
    //! Items per message.
    std::size_t items_per_message() const { return items_per_message_; }

    //! Registers the channel's waits with ctx (cancellation wakes them); call from start().
    void attach(run_context& ctx) { ctx.register_wait_point(mutex_, wait_); }

    // ---- sender side: one sender per rank ----
    //! A free buffer for dest (waits while all are in flight); returns its slot.
    std::size_t take_send_buffer(int dest, run_context& ctx) {
        std::unique_lock<std::mutex> lock(mutex_);
        auto& peer = peer_[std::size_t(dest)];
        if (peer.free.empty()) {
            auto t0 = std::chrono::steady_clock::now();
            wait_.wait(lock, ctx, [&] { return !peer.free.empty() || failed(); });
            stats_.send_wait_seconds += detail::count_since(detail::counters().send_wait_ns, t0);
        }
        throw_if_failed();
        std::size_t slot = peer.free.back();
        peer.free.pop_back();
        return slot;
    }
    //! Where the items of slot go.
    std::byte* payload(std::size_t slot) { return buffers_[slot].get() + header_bytes; }
    //! Queues slot, holding items items, for sending to dest.
    void submit(int dest, std::size_t slot, std::size_t items) {
        write_header(slot, kind_data, items, 0, 0);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            throw_if_failed();
            peer_[std::size_t(dest)].queued.push_back(
                {slot, header_bytes + items * item_bytes_, items});
        }
        wake_.notify_one();
    }
    //! Ends the data: queues END for every peer, after the data already submitted.
    void finish_sending() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            throw_if_failed();
            for (std::size_t d = 0; d < peers_; ++d) queue_final(d, kind_end, 0, {});
            finals_queued_ = true;
        }
        wake_.notify_one();
    }

    // ---- receiver side: one consumer per rank ----
    //! Releases the previous message and waits for the next one: its items and their number;
    //! false once every peer ended. Throws the remote error after a peer's ABORT.
    bool next(run_context& ctx, const std::byte*& items, std::size_t& count) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (held_) {
            to_receive_.push_back(*held_);
            held_.reset();
            wake_.notify_one();
        }
        if (ready_.empty() && peers_done_ < peers_ && !failed()) {
            auto t0 = std::chrono::steady_clock::now();
            wait_.wait(lock, ctx,
                       [&] { return !ready_.empty() || peers_done_ == peers_ || failed(); });
            stats_.receive_wait_seconds +=
                detail::count_since(detail::counters().receive_wait_ns, t0);
        }
        throw_if_failed();
        if (ready_.empty()) {
            consumer_done_ = true;
            return false;
        }
        auto [slot, n] = ready_.front();
        ready_.pop_front();
        held_ = slot;
        items = payload(slot);
        count = n;
        return true;
    }

    // ---- faults ----
    //! This rank failed with e: peers still waiting for its data get ABORT. A flow_cancelled
    //! (the graph failed elsewhere) is replaced by the graph's error from ctx.
    void fail_local(std::exception_ptr e, run_context* ctx) {
        try {
            std::rethrow_exception(e);
        } catch (const flow_cancelled&) {
            if (ctx && ctx->error()) e = ctx->error();
        } catch (...) {
        }
        auto [origin, text] = error_origin(e, comm_.rank());
        {
            std::lock_guard<std::mutex> lock(mutex_);
            record_local_failure(origin, text);
        }
        wake_.notify_one();
    }

    //! Counters so far.
    exchange_stats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }

private:
    enum : std::uint64_t { kind_data = 1, kind_end = 2, kind_abort = 3 };

    struct outgoing {
        std::size_t slot, bytes, items;
    };
    struct peer_state {
        std::vector<std::size_t> free;  // data slots not in use
        std::deque<outgoing> queued;    // submitted, not yet posted (in order; the final last)
        bool final_queued = false, final_done = false;
        std::size_t in_flight = 0;       // posted sends not completed
        std::uint64_t items_posted = 0;  // items in data messages posted to it
        bool final_received = false;     // its END or ABORT arrived
        std::uint64_t announced = 0;     // items its final says it sent
        std::uint64_t received = 0;      // items received from it
        bool done = false;               // final and all announced items received
    };

    bool failed() const { return local_failed_ || remote_failed_ || engine_error_; }
    bool draining() const { return failed() || abandoned_; }

    //! Throws the failure seen by this rank (lock held).
    void throw_if_failed() const {
        if (engine_error_) std::rethrow_exception(engine_error_);
        if (remote_failed_) throw remote_error(remote_origin_, remote_text_);
        if (local_failed_) throw flow_cancelled();
    }

    void write_header(std::size_t slot, std::uint64_t kind, std::uint64_t items,
                      std::uint64_t origin, std::uint64_t text_bytes) {
        std::uint64_t h[4] = {kind, items, origin, text_bytes};
        std::memcpy(buffers_[slot].get(), h, sizeof(h));
    }

    //! Queues the final message to d (lock held); the item count is written when it is posted.
    void queue_final(std::size_t d, std::uint64_t kind, int origin, const std::string& text) {
        auto& peer = peer_[d];
        if (peer.final_queued) return;
        peer.final_queued = true;
        std::size_t slot = final_base_ + d;
        std::size_t len = std::min(text.size(), buffer_bytes_ - header_bytes);
        write_header(slot, kind, 0, std::uint64_t(origin), len);
        std::memcpy(buffers_[slot].get() + header_bytes, text.data(), len);
        peer.queued.push_back({slot, header_bytes + len, 0});
    }

    //! Local failure (lock held): ABORT to every peer without a final; drop unsent data.
    void record_local_failure(int origin, const std::string& text) {
        if (local_failed_) return;
        local_failed_ = true;
        for (std::size_t d = 0; d < peers_; ++d) {
            auto& peer = peer_[d];
            if (peer.final_queued) continue;
            for (auto& o : peer.queued) peer.free.push_back(o.slot);
            peer.queued.clear();
            queue_final(d, kind_abort, origin, text);
        }
        finals_queued_ = true;
        wait_.notify_all();
    }

    void progress_loop() {
        backoff pause;
        try {
            for (;;) {
                bool acted = post_work();
                acted |= test_requests();
                std::unique_lock<std::mutex> lock(mutex_);
                if (finished()) break;
                if (acted) {
                    pause.reset();
                    continue;
                }
                // Sleep until new work is queued, or poll the pending requests again soon.
                wake_.wait_for(lock, std::chrono::microseconds(pause.next_delay_us()));
            }
            cancel_receives();
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            engine_error_ = std::current_exception();
            wait_.notify_all();
        }
    }

    //! Posts queued sends and receives to repost; returns true if it posted anything.
    bool post_work() {
        std::vector<outgoing> sends;
        std::vector<std::size_t> dests;
        std::vector<std::size_t> recvs;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (draining()) {
                // Nobody will read them: received messages go straight back to receiving (not
                // the consumer's current one, which it may still be reading).
                for (auto& r : ready_) to_receive_.push_back(r.first);
                ready_.clear();
            }
            const std::size_t self = std::size_t(comm_.rank());
            for (std::size_t d = 0; d < peers_; ++d) {
                auto& peer = peer_[d];
                for (auto& o : peer.queued) {
                    if (o.slot >= final_base_)  // the final announces every item posted before it
                        std::memcpy(buffers_[o.slot].get() + 8, &peer.items_posted, 8);
                    else
                        peer.items_posted += o.items;
                    sends.push_back(o);
                    dests.push_back(d);
                    ++peer.in_flight;
                    stats_.bytes_sent += o.bytes;
                    stats_.items_sent += o.items;
                    if (o.items) ++stats_.messages_sent;
                    if (d != self) {  // the process counters count what leaves the rank
                        auto& c = detail::counters();
                        detail::count(c.exchange_bytes_sent, o.bytes);
                        detail::count(c.exchange_items_sent, o.items);
                        if (o.items) detail::count(c.exchange_messages_sent, 1);
                    }
                }
                peer.queued.clear();
            }
            if (peers_done_ < peers_)
                recvs.swap(to_receive_);
            else
                to_receive_.clear();
        }
        for (std::size_t i = 0; i < sends.size(); ++i)
            locked_call("MPI_Issend", [&] {
                return MPI_Issend(buffers_[sends[i].slot].get(), int(sends[i].bytes), MPI_BYTE,
                                  int(dests[i]), tag, comm_.native(), &requests_[sends[i].slot]);
            });
        for (std::size_t slot : recvs)
            locked_call("MPI_Irecv", [&] {
                return MPI_Irecv(buffers_[slot].get(), int(buffer_bytes_), MPI_BYTE, MPI_ANY_SOURCE,
                                 tag, comm_.native(), &requests_[slot]);
            });
        return !sends.empty() || !recvs.empty();
    }

    //! Tests every request; handles completions; returns true if any completed.
    bool test_requests() {
        int count = 0;
        indices_.resize(requests_.size());
        statuses_.resize(requests_.size());
        locked_call("MPI_Testsome", [&] {
            return MPI_Testsome(int(requests_.size()), requests_.data(), &count, indices_.data(),
                                statuses_.data());
        });
        if (count == MPI_UNDEFINED || count == 0) return false;
        std::lock_guard<std::mutex> lock(mutex_);
        for (int i = 0; i < count; ++i) {
            std::size_t slot = std::size_t(indices_[std::size_t(i)]);
            if (slot < recv_base_)
                sent(slot);
            else
                received(slot, statuses_[std::size_t(i)]);
        }
        wait_.notify_all();
        return true;
    }

    void sent(std::size_t slot) {
        std::size_t d = slot < final_base_ ? slot / send_per_peer_ : slot - final_base_;
        auto& peer = peer_[d];
        --peer.in_flight;
        if (slot < final_base_)
            peer.free.push_back(slot);
        else
            peer.final_done = true;
    }

    void received(std::size_t slot, const MPI_Status& status) {
        std::size_t src = std::size_t(status.MPI_SOURCE);
        std::uint64_t h[4];
        std::memcpy(h, buffers_[slot].get(), sizeof(h));
        auto& peer = peer_[src];
        if (h[0] == kind_data) {
            peer.received += h[1];
            stats_.items_received += h[1];
            if (draining())
                to_receive_.push_back(slot);
            else
                ready_.emplace_back(slot, std::size_t(h[1]));
        } else {
            peer.final_received = true;
            peer.announced = h[1];
            if (h[0] == kind_abort && !remote_failed_ && !local_failed_) {
                remote_failed_ = true;
                remote_origin_ = int(h[2]);
                remote_text_.assign(
                    reinterpret_cast<const char*>(buffers_[slot].get() + header_bytes),
                    std::size_t(h[3]));
            }
            to_receive_.push_back(slot);
        }
        if (peer.received > peer.announced && peer.final_received)
            throw std::logic_error("emflow::mpi: rank " + std::to_string(comm_.rank()) +
                                   " received " + std::to_string(peer.received) +
                                   " items from rank " + std::to_string(src) + ", which sent " +
                                   std::to_string(peer.announced));
        if (peer.final_received && !peer.done && peer.received == peer.announced) {
            peer.done = true;
            ++peers_done_;
        }
    }

    //! True when every final was sent and every peer is done (lock held).
    bool finished() const {
        if (peers_done_ < peers_ || !finals_queued_) return false;
        for (auto& peer : peer_)
            if (!peer.final_done || peer.in_flight) return false;
        return true;
    }

    //! Cancels the receives still posted (every peer is done, so none can match).
    void cancel_receives() {
        for (std::size_t slot = recv_base_; slot < requests_.size(); ++slot) {
            if (requests_[slot] == MPI_REQUEST_NULL) continue;
            locked_call("MPI_Cancel", [&] { return MPI_Cancel(&requests_[slot]); });
            comm_.wait(requests_[slot]);
        }
    }

    static constexpr int tag = 1;

    communicator comm_;
    std::size_t peers_, item_bytes_, items_per_message_, send_per_peer_;
    std::size_t buffer_bytes_ = 0, final_base_ = 0, recv_base_ = 0;
    std::vector<std::unique_ptr<std::byte[]>> buffers_;
    std::vector<MPI_Request> requests_;  // progress thread only
    std::vector<int> indices_;
    std::vector<MPI_Status> statuses_;

    mutable std::mutex mutex_;      // guards everything below
    wait_point wait_;               // senders waiting for buffers, the consumer for messages
    std::condition_variable wake_;  // the progress thread waiting for work
    std::vector<peer_state> peer_;
    std::vector<std::size_t> to_receive_;                    // receive slots to (re)post
    std::deque<std::pair<std::size_t, std::size_t>> ready_;  // received: slot, items
    std::optional<std::size_t> held_;                        // the consumer's message
    std::size_t peers_done_ = 0;
    bool finals_queued_ = false, consumer_done_ = false, abandoned_ = false;
    bool local_failed_ = false, remote_failed_ = false;
    int remote_origin_ = -1;
    std::string remote_text_;
    std::exception_ptr engine_error_;
    exchange_stats stats_;
    std::thread thread_;
};

}  // namespace emflow::mpi
