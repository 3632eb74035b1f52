// Machinery shared by the three tracers (heap, sync wait, I/O): whether a category is on, which
// calls are admitted (not the collector's own, not re-entrant), the thread state a recorder
// writes through, and the call stack of a traced call.
//
// A wrapper runs in three steps: trace_admit() before the real call (cheap checks), the real
// call (never inside the collector's recursion guard, so program code it reaches — stdio cookie
// functions, malloc under fopen — is traced normally), then a recorder that brackets its own
// work with trace_enter()/trace_exit().
// Async-signal-safe: everything here except trace_common_init().
#pragma once
#include <stdint.h>

#include "collector/interposer_support.h"

namespace erkit::collector {

struct ThreadState;

enum TraceCategory : int { kTraceHeap = 0, kTraceSync = 1, kTraceIo = 2, kTraceCategories = 3 };

// Per category: 1 while that tracer records. Written at init, read by every wrapper.
extern int g_trace_on[kTraceCategories];

inline bool trace_enabled(int category) {
  return __atomic_load_n(&g_trace_on[category], __ATOMIC_RELAXED) != 0;
}

// Starts the collector from the first interposed call of the process (before the collector's
// constructor), with the calling thread inside the collector. Before libc has initialised
// (.preinit_array functions) the environment that names the experiment is not readable yet:
// the start is then retried by the next traced call. Not signal-safe.
void trace_start_early();

// Whether a call whose return address is `caller` should be traced: recording is on, the caller
// is not collector code, and the thread is not inside the collector already.
bool trace_admit(const void* caller);

// The state a recorder writes through; nullptr when the event must be dropped. Recorders do
// not raise the thread's in_collector guard: nothing they run reaches an interposed function
// except the collector's direct calls (which trace_admit() turns away by their caller), and a
// program's signal handler that interrupts a recorder must still be traced (record_reserve
// nests per signal level). A thread whose slot was already released (events after its
// collector teardown, e.g. frees in later thread-specific-data destructors) writes through a
// shared fallback state under a try-lock instead of claiming a slot it would never give back.
struct TraceWriter {
  ThreadState* ts = nullptr;
  bool shared = false;
};
TraceWriter trace_enter();
void trace_exit(const TraceWriter& w);

// The call stack of the traced call, leaf first, interned in the stacks file: its first frame is
// the interposed function itself (its entry address, e.g. malloc + 0), then the program's call
// site and its callers. On x86-64 it unwinds from the caller registers the wrapper's frame
// holds; elsewhere from here, dropping the collector's frames.
uint64_t trace_stack(ThreadState* ts, const TraceCall& t);

// Whether pc lies in libcollector.so's own code.
bool pc_in_collector(uint64_t pc);

// Finds the collector's code range and the calling thread's stack bounds. Not signal-safe.
void trace_common_init();
// Starts every tracer the configuration asks for (runtime_init, once the experiment is open and
// the unwinder knows the loaded objects). Not signal-safe.
void tracers_init();

}  // namespace erkit::collector
