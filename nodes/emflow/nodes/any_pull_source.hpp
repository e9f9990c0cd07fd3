// emflow/nodes/any_pull_source.hpp: a pull node of T standing for any pull node of T (type
// erasure: one indirect call per batch of up to default_chunk elements, which are copied once).
// Lets a long pipeline be compiled once for all its sources, e.g. a suffix-array construction
// for texts from files, vectors or generators.
//
//   any_pull_source<std::uint8_t> text(file_source<std::uint8_t>("genome"));
//   std::function<any_pull_source<std::uint8_t>()> open = [&] { return any_pull_source<...>(...); };
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/batch_buffer.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace emflow {

//! Pull node over any pull node of T (owned, or referenced when given as an lvalue).
template <class T>
class any_pull_source {
    struct source {
        virtual ~source() = default;
        virtual void start(run_context& ctx) = 0;
        virtual std::size_t fill(T* out, std::size_t cap) = 0;  // 0: the end
    };
    template <class Src>
    struct holder final : source {
        explicit holder(Src&& s) : src(std::forward<Src>(s)) {}
        void start(run_context& ctx) override { src.start(ctx); }
        std::size_t fill(T* out, std::size_t cap) override {
            std::size_t k = 0;
            while (k < cap && !src.empty()) {
                std::size_t len = std::min(src.batch_length(), cap - k);
                auto b = src.batch_begin();
                for (std::size_t i = 0; i < len; ++i) out[k + i] = b[i];
                src += len;
                k += len;
            }
            return k;
        }
        stored_t<Src> src;
    };

public:
    using value_type = T;  //!< element type

    //! Stands for src.
    template <class Src, std::enable_if_t<is_pull_node_v<Src>, int> = 0>
    explicit any_pull_source(Src&& src)
        : src_(std::make_unique<holder<Src>>(std::forward<Src>(src))) {}

    //! Starts the source.
    void start(run_context& ctx) {
        src_->start(ctx);
        buf_.allocate(default_chunk);
    }
    //! True at the end of the source.
    bool empty() { return buf_.exhausted() && !refill(); }
    //! Current element.
    const T& operator*() { return *batch_begin(); }
    //! Advances by one.
    any_pull_source& operator++() { return *this += 1; }
    //! Elements available at batch_begin().
    std::size_t batch_length() { return empty() ? 0 : buf_.length(); }
    //! The current batch.
    const T* batch_begin() { return buf_.begin(); }
    //! Advances by n <= batch_length().
    any_pull_source& operator+=(std::size_t n) {
        buf_.advance(n);
        return *this;
    }

private:
    bool refill() {
        if (ended_) return false;  // the source is not asked again after its end
        std::size_t n = src_->fill(buf_.fill_area(), buf_.capacity());
        buf_.filled(n);
        ended_ = n == 0;
        return !ended_;
    }

    std::unique_ptr<source> src_;
    batch_buffer<T> buf_;
    bool ended_ = false;
};

}  // namespace emflow
