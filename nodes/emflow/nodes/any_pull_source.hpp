// SPDX-License-Identifier: BSL-1.0
// emflow/nodes/any_pull_source.hpp: a pull node of T standing for any pull node of T (type
// erasure: one indirect call per batch of up to default_chunk elements, which are copied once).
// Lets a long pipeline be compiled once for all its sources, e.g. a suffix-array construction
// for texts from files, vectors or generators.
//
//   any_pull_source<std::uint8_t> text(file_source<std::uint8_t>("genome"));
//   std::function<any_pull_source<std::uint8_t>()> open = [&] { return any_pull_source<...>(...);
//   };
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/pull_base.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace emflow {

//! Pull node over any pull node of T (owned, or referenced when given as an lvalue).
template <class T>
class any_pull_source : public buffered_pull<any_pull_source<T>, T> {
    friend class buffered_pull<any_pull_source, T>;

    struct source {
        virtual ~source() = default;
        virtual void start(run_context& ctx) = 0;
        virtual std::size_t fill(T* out, std::size_t cap) = 0;  // 0: the end
        virtual std::uint64_t skip(std::uint64_t n) = 0;        // skip_ahead
    };
    template <class Src>
    struct holder final : source {
        explicit holder(Src&& s) : src(std::forward<Src>(s)) {}
        void start(run_context& ctx) override { src.start(ctx); }
        std::size_t fill(T* out, std::size_t cap) override { return read_into(src, out, cap); }
        std::uint64_t skip(std::uint64_t n) override { return skip_ahead(src, n); }
        stored_t<Src> src;
    };

public:
    //! Stands for src.
    template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
    explicit any_pull_source(Src&& src)
        : src_(std::make_unique<holder<Src>>(std::forward<Src>(src))) {}

    //! Starts the source, declares the buffer.
    void start(run_context& ctx) {
        src_->start(ctx);
        this->declare_buffer(ctx, "any_pull_source chunk");
    }

    //! Advances by n elements (fewer at the end): past what it holds, by the source's skip
    //! (skip_ahead), so a source that jumps keeps jumping behind the erasure. Returns the
    //! elements passed.
    std::uint64_t skip(std::uint64_t n) {
        const std::size_t held = this->held();
        if (n <= held) {
            *this += std::size_t(n);
            return n;
        }
        this->drop_batch();
        return held + src_->skip(n - held);
    }

private:
    std::size_t refill(T* out, std::size_t cap) { return src_->fill(out, cap); }

    std::unique_ptr<source> src_;
};

}  // namespace emflow
