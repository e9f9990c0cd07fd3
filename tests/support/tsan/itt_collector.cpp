// SPDX-License-Identifier: BSL-1.0
// tests/support/tsan/itt_collector.cpp: an ITT collector library (libemflow_tsan_itt.so) that
// turns oneTBB's synchronization notifications into ThreadSanitizer happens-before edges.
//
// Debian's libtbb is not instrumented, so TSan does not see the edges of a task's spawn, steal
// and completion, nor of oneTBB's own mutexes, and reports races on everything a task touches.
// libtbb carries the static part of Intel's ITT API: named by INTEL_LIBITTNOTIFY64 (and with
// INTEL_ITTNOTIFY_GROUPS=sync), it loads a collector and calls its __itt_sync_* functions where
// an object is released (a task spawned, a wait_context's reference dropped, a mutex unlocked)
// and acquired (a task taken for execution, a wait ended, a mutex locked). With
// TBB_USE_PROFILING_TOOLS=2 (the TSan build's emflow_dev), oneTBB's headers notify too.
// tsan_hooks.cpp points the variables here. Only the synchronization group is implemented; the
// loader leaves the other functions as no-ops.
#include <sanitizer/tsan_interface.h>

#define EMFLOW_ITT_EXPORT extern "C" __attribute__((visibility("default")))

// Its presence tells the loader that this collector takes the current API (by name, per
// function); the loader never calls it.
EMFLOW_ITT_EXPORT const char* __itt_api_version() { return "emflow ThreadSanitizer bridge"; }

// Before a thread lets others see its writes through addr.
EMFLOW_ITT_EXPORT void __itt_sync_releasing(void* addr) { __tsan_release(addr); }
// After a thread has seen another's release through addr.
EMFLOW_ITT_EXPORT void __itt_sync_acquired(void* addr) { __tsan_acquire(addr); }

// An object's end: oneTBB notifies it before a task or partitioner node goes back to its small
// object pool, whose memory another thread may take for its next task; tsan_hooks.cpp acquires
// at that allocation (the pool's own hand-over is not instrumented).
EMFLOW_ITT_EXPORT void __itt_sync_destroy(void* addr) { __tsan_release(addr); }

// Notifications that order nothing: a thread about to wait, a wait given up, an object's
// creation and renaming.
EMFLOW_ITT_EXPORT void __itt_sync_prepare(void*) {}
EMFLOW_ITT_EXPORT void __itt_sync_cancel(void*) {}
EMFLOW_ITT_EXPORT void __itt_sync_create(void*, const char*, const char*, int) {}
EMFLOW_ITT_EXPORT void __itt_sync_rename(void*, const char*) {}
