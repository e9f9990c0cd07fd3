// SPDX-License-Identifier: BSL-1.0
// failing_new.hpp (test support): replaces the global operator new (plain and over-aligned)
// so that a test can make the k-th large request (64 KiB or more) of a run, and every large one
// after it, fail, as when RAM runs out. Defines the replacement functions: include it in exactly
// one source file of a test binary, and only in a binary of its own.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace emflow_test {

//! Requests from this size on are large: the queues' blocks, heaps and arrays, sort runs, window
//! arrays, vector buffers.
inline constexpr std::size_t large_request = std::size_t(64) << 10;
//! Large requests so far.
inline std::atomic<long> large_requests{0};
//! How many more large requests succeed (-1: all); at 0 every large request fails.
inline std::atomic<long> large_requests_left{-1};

//! False if a request of n bytes must fail as armed (counts the large ones).
inline bool may_allocate(std::size_t n) {
    if (n < large_request) return true;
    ++large_requests;
    long left = large_requests_left.load();
    while (left > 0 && !large_requests_left.compare_exchange_weak(left, left - 1)) {
    }
    return left != 0;
}

//! malloc, failing as armed for large requests.
inline void* allocate_or_fail(std::size_t n) {
    return may_allocate(n) ? std::malloc(n ? n : 1) : nullptr;
}

//! aligned_alloc (its size rounded up to a multiple of the alignment), failing as armed for
//! large requests: over-aligned buffers (file nodes' I/O buffers) fail like the others.
inline void* allocate_aligned_or_fail(std::size_t n, std::align_val_t alignment) {
    const std::size_t a = static_cast<std::size_t>(alignment);
    return may_allocate(n) ? std::aligned_alloc(a, (std::max<std::size_t>(n, 1) + a - 1) / a * a)
                           : nullptr;
}

//! Counts the large requests of f() (run without failures), in its second run: the first may
//! make more (buffers that stay for later runs, e.g. in thread-local storage or in STXXL).
template <class F>
long count_large_requests(F&& f) {
    f();
    large_requests = 0;
    f();
    return large_requests;
}

//! Makes the k-th large request from now on, and every large one after it, fail while alive.
class large_request_failure {
public:
    explicit large_request_failure(long k) { large_requests_left = k; }
    ~large_request_failure() { large_requests_left = -1; }
    large_request_failure(const large_request_failure&) = delete;
    large_request_failure& operator=(const large_request_failure&) = delete;
};

//! Counts the large requests of f(), then runs f() with the first, and one a quarter, half and
//! three quarters way into them failing: each of those runs throws std::bad_alloc.
template <class F>
void check_failures_reach_the_caller(F&& f) {
    const long total = count_large_requests(f);
    INFO(total << " large requests");
    REQUIRE(total >= 4);
    for (const long k : {0L, total / 4, total / 2, 3 * total / 4}) {
        INFO("request " << k << " fails");
        large_request_failure fail(k);
        CHECK_THROWS_AS(f(), std::bad_alloc);
    }
}

}  // namespace emflow_test

// Every form that pairs with the deletes below (a sanitizer's own forms would not pair with
// free); g++ takes free() inside a replacement operator delete for a mismatch with new.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
    if (void* p = emflow_test::allocate_or_fail(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    return emflow_test::allocate_or_fail(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return emflow_test::allocate_or_fail(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
    if (void* p = emflow_test::allocate_aligned_or_fail(n, a)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return emflow_test::allocate_aligned_or_fail(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return emflow_test::allocate_aligned_or_fail(n, a);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#pragma GCC diagnostic pop
