// pthread_create interposition: every thread starts in the collector's trampoline, which sets
// up per-thread collection (clock timer, stack bounds) before the program's start routine,
// and a thread-specific key's destructor tears it down however the thread ends. Exported under
// every version a program can bind (see below).
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "collector/clock_profiler.h"
#include "collector/data_writer.h"
#include "collector/hwc_profiler.h"
#include "collector/microstates.h"
#include "collector/outside_sampler.h"
#include "collector/task_proc.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/threads.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

struct StartSlot {
  int busy;  // atomic
  void* (*fn)(void*);
  void* arg;
  uint64_t created_ns;  // CLOCK_MONOTONIC at pthread_create: the thread's life starts there
};
constexpr int kSlots = 1024;
StartSlot g_slots[kSlots];
pthread_key_t g_exit_key;
bool g_key_ok = false;
int g_pending_starts = 0;  // atomic: see threads_pending_starts()

StartSlot* claim_slot() {
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (__atomic_compare_exchange_n(&g_slots[i].busy, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED))
      return &g_slots[i];
  }
  return nullptr;
}

void on_thread_exit(void*) {
  ThreadState* ts = current_thread_if_any();
  if (!ts) return;
  clock_thread_end(ts);
  clock_flush_tail(ts);
  hwc_thread_end(ts);
  microstates_thread_end(ts);
  if (g_rt.active) {
    TextLine line;
    line.event(now_ns(), logev::kThreadEnd).kv_dec(logkey::kTid, ts->tid);
    // Sampled from outside (issue 16): the thread's final on-CPU time and run-queue delay, so
    // collect accounts its last stretch after its last look, as the in-process sampler's
    // ending thread does.
    if (outside_sampler_active()) {
      SchedStat st{};
      int fd = open_task_file(ts->tid, "schedstat");
      if (fd >= 0 && read_schedstat(fd, &st))
        line.kv_dec(logkey::kAtNs, int64_t(monotonic_ns())).kv_dec(logkey::kExecNs, int64_t(st.exec_ns))
            .kv_dec(logkey::kDelayNs, int64_t(st.delay_ns));
      if (fd >= 0) close(fd);
    }
    line.write_to(g_rt.log_fd);
  }
  data_thread_retire(ts);
  sampler_thread_note_thread_end(ts->tid);
  thread_release_current();
}

void* trampoline(void* p) {
  auto* slot = static_cast<StartSlot*>(p);
  void* (*fn)(void*) = slot->fn;
  void* arg = slot->arg;
  uint64_t created_ns = slot->created_ns;
  __atomic_store_n(&slot->busy, 0, __ATOMIC_RELEASE);
  thread_started(reinterpret_cast<uintptr_t>(fn), created_ns);
  // Only now, registered, does this thread stop counting as pending for the sampler's scan.
  __atomic_sub_fetch(&g_pending_starts, 1, __ATOMIC_RELEASE);
  return fn(arg);
}

}  // namespace

void threads_init() {
  if (!g_key_ok) g_key_ok = pthread_key_create(&g_exit_key, on_thread_exit) == 0;
}

void thread_started(uintptr_t start_routine, uint64_t created_ns) {
  ThreadState* ts = current_thread();
  if (!ts) return;
  ts->in_collector++;
  if (ts->adopted) {
    // The slot of an adopted thread that ended unseen, whose tid the kernel gave to this one.
    clock_thread_end(ts);
    ts->adopted = ts->cpu_by_sampler = false;
  }
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
  if (g_key_ok) pthread_setspecific(g_exit_key, ts);
  if (g_rt.active) {
    TextLine line;
    line.event(now_ns(), logev::kThreadStart).kv_dec(logkey::kTid, ts->tid).kv_hex(logkey::kStart, start_routine);
    line.write_to(g_rt.log_fd);
  }
  clock_thread_start(ts);
  hwc_thread_start(ts);
  microstates_thread_start(ts, created_ns);
  ts->in_collector--;
}

int threads_pending_starts() { return __atomic_load_n(&g_pending_starts, __ATOMIC_ACQUIRE); }

int create_thread(pthread_t* thr, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  runtime_init();
  StartSlot* slot = g_rt.active ? claim_slot() : nullptr;
  if (!slot) return g_real.pthread_create(thr, attr, fn, arg);
  slot->fn = fn;
  slot->arg = arg;
  slot->created_ns = monotonic_ns();
  __atomic_add_fetch(&g_pending_starts, 1, __ATOMIC_ACQ_REL);
  int rc = g_real.pthread_create(thr, attr, trampoline, slot);
  if (rc != 0) {
    __atomic_sub_fetch(&g_pending_starts, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->busy, 0, __ATOMIC_RELEASE);
  }
  return rc;
}

}  // namespace erkit::collector

// Exported in the base version: glibc's lookup lets an unversioned definition in a versioned
// library satisfy a reference to any version, so programs that bind pthread_create@GLIBC_2.34
// and old ones bound to @GLIBC_2.2.5 both arrive here (gprofng exported only @GLIBC_2.2.5 and
// never saw the threads of programs built on glibc >= 2.34).
extern "C" __attribute__((visibility("default"))) int pthread_create(
    pthread_t* thr, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  return erkit::collector::create_thread(thr, attr, fn, arg);
}
