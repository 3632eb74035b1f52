// Per-thread collector state, in a fixed pool so that a signal handler can find or claim its
// thread's slot without allocating. Async-signal-safe: current_thread(), thread_claim().
#pragma once
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "format/experiment_format.h"

namespace erkit::collector {

inline constexpr int kMaxNesting = 3;  // normal context, signal, signal-in-signal

struct BlockCursor {
  char* block = nullptr;  // mmap'ed block, or nullptr
  uint32_t used = 0;
};

struct ThreadState {
  int in_use;          // claimed slot (atomic)
  uint32_t tid;
  bool is_main;
  bool has_timer;
  bool baseline_valid;  // last_* hold a real previous reading
  int paused;           // collector_thread_pause()
  timer_t timer;
  uint64_t last_user_ns, last_system_ns;
  uint64_t last_stack_id;  // stack of the latest sample: receives the tail at thread end
  uintptr_t stack_lo, stack_hi;  // 0/0 when unknown
  int writer_depth;     // nesting of record_reserve (signal re-entry)
  BlockCursor cursors[kMaxNesting][uint32_t(format::DataKind::kCount)];
  int in_collector;     // >0 while collector code runs on this thread (tracers skip)
};

// The calling thread's state, claiming a slot on first use. nullptr if the pool is exhausted.
ThreadState* current_thread();
// The calling thread's state if it has one already.
ThreadState* current_thread_if_any();
// Frees the calling thread's slot (at thread exit).
void thread_release_current();
// Calls fn for every claimed slot (not signal-safe: used at init/fini).
void thread_for_each(void (*fn)(ThreadState*, void*), void* arg);

}  // namespace erkit::collector
