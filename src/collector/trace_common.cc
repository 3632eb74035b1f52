#include "collector/trace_common.h"

#include <link.h>
#include <pthread.h>
#include <string.h>

#include "collector/heap_trace.h"
#include "collector/io_trace.h"
#include "collector/runtime.h"
#include "collector/stack_store.h"
#include "collector/sync_trace.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"
#include "format/experiment_format.h"

namespace erkit::collector {

int g_trace_on[kTraceCategories];

namespace {

uintptr_t g_self_lo = 0, g_self_hi = 0;  // libcollector.so's executable segment

// Executable segments of libc and the dynamic linker: code the collector calls into.
struct Range {
  uintptr_t lo, hi;
};
constexpr int kMaxSystem = 4;
Range g_system[kMaxSystem];
int g_nsystem = 0;

// Bounds of the section holding every generated wrapper (interposers.cc), from the linker.
extern "C" char __start_erkit_wrappers[] __attribute__((visibility("hidden")));
extern "C" char __stop_erkit_wrappers[] __attribute__((visibility("hidden")));

bool in_wrappers(uint64_t pc) {
  return pc >= reinterpret_cast<uintptr_t>(__start_erkit_wrappers) &&
         pc < reinterpret_cast<uintptr_t>(__stop_erkit_wrappers);
}

bool in_system(uint64_t pc) {
  for (int i = 0; i < g_nsystem; ++i)
    if (pc >= g_system[i].lo && pc < g_system[i].hi) return true;
  return false;
}

// Set once the thread wrote through its own slot: an empty thread-local pointer after that means
// the slot was released at thread exit, not that the thread is new.
__thread bool t_had_slot = false;

ThreadState g_shared_state;  // writer of last resort, see TraceWriter
int g_shared_lock = 0;

int find_objects(dl_phdr_info* info, size_t, void* data) {
  auto self = reinterpret_cast<uintptr_t>(data);
  const char* name = info->dlpi_name ? info->dlpi_name : "";
  bool system = strstr(name, "/libc.so") || strstr(name, "/ld-linux");
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (self >= lo && self < hi) g_self_lo = lo, g_self_hi = hi;
    if (system && g_nsystem < kMaxSystem) g_system[g_nsystem++] = {lo, hi};
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

void tracers_init() {
  const Config& c = g_rt.config;
  if (!c.heap_trace && !c.io_trace && c.sync_trace == -1) return;
  trace_common_init();
  heap_trace_init();
  sync_trace_init();
  io_trace_init();
}

bool trace_admit(const void* caller) {
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
    w.ts = &g_shared_state;
    w.shared = true;
  } else {
    if (!ts) ts = current_thread();
    if (!ts) return w;
    t_had_slot = true;
    if (ts->in_collector || ts->is_helper) return w;
    w.ts = ts;
  }
  w.ts->in_collector++;
  return w;
}

void trace_exit(const TraceWriter& w) {
  if (!w.ts) return;
  w.ts->in_collector--;
  if (w.shared) __atomic_store_n(&g_shared_lock, 0, __ATOMIC_RELEASE);
}

__attribute__((noinline)) uint64_t trace_stack(ThreadState* ts) {
  uint64_t pcs[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int n = unwind::unwind_from_here(0, bounds, pcs, int(format::kMaxStackFrames), &st);
  // The first frames are the collector's (this function, the recorder, the wrapper): keep the
  // outermost of them, the interposed function, whatever the compiler inlined.
  int first = 0;
  while (first + 1 < n && pc_in_collector(pcs[first + 1])) ++first;
  n -= first;
  uint64_t* p = pcs + first;
  // A call the collector made through libc (its helper threads' creation allocating their TLS
  // in the dynamic linker): only libc, ld.so and other wrappers (fopen's malloc) lie between
  // the wrapper and collector code that is not a wrapper.
  for (int i = 1; i < n; ++i) {
    if (in_wrappers(p[i]) || in_system(p[i])) continue;
    if (pc_in_collector(p[i])) return kDropEvent;
    break;
  }
  if (st.failed && !st.truncated && n < int(format::kMaxStackFrames)) p[n++] = format::kUnwindFailedPc;
  return stack_intern(ts, p, n, st.truncated);
}

}  // namespace erkit::collector
