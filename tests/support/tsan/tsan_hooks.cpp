// SPDX-License-Identifier: BSL-1.0
// tests/support/tsan/tsan_hooks.cpp: linked into every test binary of the ThreadSanitizer build;
// makes the synchronization of the two uninstrumented threading runtimes visible to TSan.
//
// oneTBB: points libtbb's ITT loader at the collector (itt_collector.cpp) before the first
// scheduler use (libtbb reads the variables then, not when it is loaded). Its small object pool
// (tasks, partitioner nodes) hands memory freed by one thread to another's next allocation:
// the interposed allocations acquire what the collector released at the object's end. A wait
// ends when libtbb sees a wait_context's count reach zero, but that load is not instrumented:
// the interposed waits load it again, so the tasks' last (instrumented) decrements are seen.
// A task suspended in one thread (tbb::task::suspend) may continue in another: resume releases
// the suspend point, and the suspended task acquires it when it goes on.
// OpenMP: libgomp's fork and join are invisible too, so every thread of a parallel region
// would race with the code around it. GOMP_parallel (the entry point of `#pragma omp
// parallel`, also of `parallel for`, whose loop runs inside the region's function) is
// interposed: the calling thread releases before the fork, each team thread acquires at the
// start of the region's function and releases at its end, and the caller acquires after the
// join. What the region's threads do among themselves (barriers, critical sections) is not
// modelled; the tests of the TSan suite use no other OpenMP construct (scripts/test-tsan checks
// the binaries' imports).
#include <oneapi/tbb/detail/_small_object_pool.h>
#include <oneapi/tbb/detail/_task.h>
#include <oneapi/tbb/task_arena.h>
#include <sanitizer/tsan_interface.h>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "next_definition.hpp"

//! TSan's options: the suite's suppressions (suppressions.txt).
extern "C" const char* __tsan_default_options() { return "suppressions=" EMFLOW_TSAN_SUPPRESSIONS; }

namespace {

const int itt_variables = [] {
    if (access(EMFLOW_TSAN_ITT_LIBRARY, R_OK) != 0) {  // libtbb would go on without it, silently
        std::fputs("tsan_hooks: " EMFLOW_TSAN_ITT_LIBRARY " is missing\n", stderr);
        std::abort();
    }
    setenv("INTEL_LIBITTNOTIFY64", EMFLOW_TSAN_ITT_LIBRARY, 0);
    setenv("INTEL_ITTNOTIFY_GROUPS", "sync", 0);
    return 0;
}();

// libtbb reads the process's affinity mask once, into memory it allocates, when a thread first
// asks for the hardware concurrency; a thread that later creates workers compares its own mask
// with it. Behind libtbb's uninstrumented once-flag, a plain test thread's first use raced
// with another's comparison (ppq_plain_threads). Asked here, before main, every thread that
// reads the mask was started after it was written.
const int hardware_concurrency = tbb::this_task_arena::max_concurrency();

using region_function = void (*)(void*);
using gomp_parallel_function = void (*)(region_function, void*, unsigned, unsigned);

//! A parallel region's function and data, passed to the team through region_body.
struct region {
    region_function fn;
    void* data;
};

void region_body(void* p) {
    auto* r = static_cast<region*>(p);
    __tsan_acquire(r);
    r->fn(r->data);
    __tsan_release(r);
}

using emflow_test::tsan::next_definition;

}  // namespace

namespace tbb::detail::r1 {

void* allocate(d1::small_object_pool*& pool, std::size_t bytes) {
    using function = void* (*)(d1::small_object_pool*&, std::size_t);
    static const auto real =
        next_definition<function>("_ZN3tbb6detail2r18allocateERPNS0_2d117small_object_poolEm");
    void* p = real(pool, bytes);
    __tsan_acquire(p);
    return p;
}

void* allocate(d1::small_object_pool*& pool, std::size_t bytes, const d1::execution_data& ed) {
    using function = void* (*)(d1::small_object_pool*&, std::size_t, const d1::execution_data&);
    static const auto real = next_definition<function>(
        "_ZN3tbb6detail2r18allocateERPNS0_2d117small_object_poolEmRKNS2_14execution_dataE");
    void* p = real(pool, bytes, ed);
    __tsan_acquire(p);
    return p;
}

namespace {

//! Loads wait's reference count as an acquire, where TSan sees it (this file is instrumented;
//! a wait_context is a version word, then the count: oneTBB 2021's layout, checked by size).
void acquire_wait_count(d1::wait_context& wait) {
    static_assert(sizeof(d1::wait_context) == 2 * sizeof(std::uint64_t));
    auto* count = reinterpret_cast<std::atomic<std::uint64_t>*>(&wait) + 1;
    (void)count->load(std::memory_order_acquire);
}

//! The callback and its data of one suspension, and its suspend point once known.
struct suspension {
    suspend_callback_type callback;
    void* data;
    suspend_point_type* point;
};

// Not instrumented: the suspension is read by the thread that goes on, before its acquire.
__attribute__((no_sanitize_thread)) void on_suspend(void* p, suspend_point_type* point) {
    auto* s = static_cast<suspension*>(p);
    s->point = point;
    s->callback(s->data, point);
}

}  // namespace

void wait(d1::wait_context& wait, d1::task_group_context& ctx) {
    using function = void (*)(d1::wait_context&, d1::task_group_context&);
    static const auto real = next_definition<function>(
        "_ZN3tbb6detail2r14waitERNS0_2d112wait_contextERNS2_18task_group_contextE");
    real(wait, ctx);
    acquire_wait_count(wait);
}

void execute_and_wait(d1::task& t, d1::task_group_context& t_ctx, d1::wait_context& wait,
                      d1::task_group_context& w_ctx) {
    using function =
        void (*)(d1::task&, d1::task_group_context&, d1::wait_context&, d1::task_group_context&);
    static const auto real = next_definition<function>(
        "_ZN3tbb6detail2r116execute_and_waitERNS0_2d14taskERNS2_18task_group_contextERNS2_12wait_"
        "contextES6_");
    real(t, t_ctx, wait, w_ctx);
    acquire_wait_count(wait);
}

__attribute__((no_sanitize_thread)) void suspend(suspend_callback_type callback, void* data) {
    static const auto real = next_definition<void (*)(suspend_callback_type, void*)>(
        "_ZN3tbb6detail2r17suspendEPFvPvPNS1_18suspend_point_typeEES2_");
    suspension s{callback, data, nullptr};
    real(&on_suspend, &s);
    __tsan_acquire(s.point);
}

void resume(suspend_point_type* point) {
    static const auto real = next_definition<void (*)(suspend_point_type*)>(
        "_ZN3tbb6detail2r16resumeEPNS1_18suspend_point_typeE");
    __tsan_release(point);
    real(point);
}

}  // namespace tbb::detail::r1

extern "C" void GOMP_parallel(region_function fn, void* data, unsigned num_threads,
                              unsigned flags) {
    region r{fn, data};
    __tsan_release(&r);
    static const auto real = next_definition<gomp_parallel_function>("GOMP_parallel");
    real(&region_body, &r, num_threads, flags);
    __tsan_acquire(&r);
}
