#include "collector/trace_common.h"

#include <link.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ucontext.h>

#include "collector/heap_trace.h"
#include "collector/io_trace.h"
#include "collector/java_bridge.h"
#include "collector/runtime.h"
#include "collector/stack_store.h"
#include "collector/sync_trace.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"
#include "format/experiment_format.h"

namespace erkit::collector {

int g_trace_on[kTraceCategories];

extern "C" char** environ;

namespace {

uintptr_t g_self_lo = 0, g_self_hi = 0;  // libcollector.so's executable segment

// Set once the thread wrote through its own slot: an empty thread-local pointer after that means
// the slot was released at thread exit, not that the thread is new.
__thread bool t_had_slot = false;

// 1 while the collector could not be started early (no environment yet): every category is
// then marked on, so that calls reach trace_admit(), which retries.
int g_start_pending = 0;

ThreadState g_shared_state;  // writer of last resort, see TraceWriter
int g_shared_lock = 0;

int find_objects(dl_phdr_info* info, size_t, void* data) {
  auto self = reinterpret_cast<uintptr_t>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (self >= lo && self < hi) {
      g_self_lo = lo;
      g_self_hi = hi;
      return 1;
    }
  }
  return 0;
}

}  // namespace

bool pc_in_collector(uint64_t pc) { return pc >= g_self_lo && pc < g_self_hi; }

void trace_common_init() {
  if (!g_self_hi) dl_iterate_phdr(find_objects, reinterpret_cast<void*>(&trace_common_init));
  // The initial thread did not start through the trampoline: give its unwinds real bounds (the
  // unwinder otherwise probes every stack page it reads, ~0.3 µs each). pthread_getattr_np
  // reads /proc/self/maps with stdio and malloc: keep those calls out of the traces.
  ThreadState* ts = current_thread();
  if (ts && !ts->stack_hi) {
    ts->in_collector++;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        ts->stack_lo = reinterpret_cast<uintptr_t>(addr);
        ts->stack_hi = ts->stack_lo + size;
      }
      pthread_attr_destroy(&attr);
    }
    ts->in_collector--;
  }
}

void trace_start_early() {
  if (!environ) {
    __atomic_store_n(&g_start_pending, 1, __ATOMIC_RELEASE);
    for (int& on : g_trace_on) __atomic_store_n(&on, 1, __ATOMIC_RELEASE);
    return;
  }
  __atomic_store_n(&g_start_pending, 0, __ATOMIC_RELEASE);
  // Everything the start does (helper threads, their thread-local storage) is the collector's.
  ThreadState* ts = current_thread();
  if (ts) ts->in_collector++;
  runtime_init();
  if (ts) ts->in_collector--;
}

void tracers_init() {
  const Config& c = g_rt.config;
  __atomic_store_n(&g_start_pending, 0, __ATOMIC_RELEASE);
  for (int& on : g_trace_on) __atomic_store_n(&on, 0, __ATOMIC_RELEASE);
  if (!c.heap_trace && !c.io_trace && c.sync_trace == -1 && !c.mpi_trace) return;
  trace_common_init();
  heap_trace_init();
  sync_trace_init();
  io_trace_init();
}

bool trace_admit(const void* caller) {
  if (__builtin_expect(__atomic_load_n(&g_start_pending, __ATOMIC_ACQUIRE), 0) && environ) trace_start_early();
  if (!__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return false;
  if (pc_in_collector(reinterpret_cast<uintptr_t>(caller))) return false;
  ThreadState* ts = current_thread_if_any();
  return !ts || (ts->in_collector == 0 && !ts->is_helper && !ts->paused);
}

TraceWriter trace_enter() {
  TraceWriter w;
  ThreadState* ts = current_thread_if_any();
  if (!ts && t_had_slot) {
    int expected = 0;
    if (!__atomic_compare_exchange_n(&g_shared_lock, &expected, 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
      return w;  // held, possibly by the code this signal handler interrupted: drop the event
    // The events of a thread whose slot is gone (its exit path, TLS destructors) still belong
    // to it: the log names the thread, so its records must carry its id, not the shared one's.
    g_shared_state.tid = uint32_t(syscall(SYS_gettid));
    w.ts = &g_shared_state;
    w.shared = true;
  } else {
    if (!ts) ts = current_thread();
    if (!ts) return w;
    t_had_slot = true;
    if (ts->in_collector || ts->is_helper) return w;
    w.ts = ts;
  }
  return w;
}

void trace_exit(const TraceWriter& w) {
  if (w.shared) __atomic_store_n(&g_shared_lock, 0, __ATOMIC_RELEASE);
}

uint64_t trace_stack(ThreadState* ts, const TraceCall& t) {
  uint64_t pcs[format::kMaxStackFrames + 1];
  pcs[0] = t.function;  // the interposed function itself, e.g. malloc
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int n = 1;
#if defined(__x86_64__)
  // The wrapper's caller as a signal context would describe it: its pc is the return address,
  // its stack pointer is just above that return address, its frame pointer was saved by the
  // wrapper's prologue. Other registers are unknown (0); CFA rules use the stack or frame
  // pointer. The walk then starts in the program, not in the collector's frames.
  ucontext_t uc;
  __builtin_memset(uc.uc_mcontext.gregs, 0, sizeof uc.uc_mcontext.gregs);
  const auto* frame = static_cast<const uint64_t*>(t.frame);
  uc.uc_mcontext.gregs[REG_RBP] = greg_t(frame[0]);
  uc.uc_mcontext.gregs[REG_RIP] = greg_t(frame[1]);
  uc.uc_mcontext.gregs[REG_RSP] = greg_t(reinterpret_cast<uintptr_t>(frame + 2));
  n += unwind::unwind_from_ucontext(&uc, bounds, pcs + 1, java_machine_limit() - 1, &st);
#else
  // Elsewhere the caller's stack pointer is not known from the frame record: walk from here and
  // drop the collector's own frames (this function, the recorder, the wrapper).
  uint64_t all[format::kMaxStackFrames + 1];
  int m = unwind::unwind_from_here(0, bounds, all, int(format::kMaxStackFrames), &st);
  int first = 0;
  while (first < m && pc_in_collector(all[first])) ++first;
  for (int i = first; i < m && n < java_machine_limit(); ++i) pcs[n++] = all[i];
  void* ucp = nullptr;  // AsyncGetCallTrace walks from the thread's last Java frame
#endif
  if (st.failed && !st.truncated && n < java_machine_limit()) pcs[n++] = format::kUnwindFailedPc;
#if defined(__x86_64__)
  void* ucp = &uc;
#endif
  bool truncated = java_finish_stack(ts, ucp, pcs, &n, st.truncated);
  return stack_intern(ts, pcs, n, truncated);
}

}  // namespace erkit::collector
