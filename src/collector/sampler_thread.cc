// The collector's sampler thread: once per clock interval (clamped to 10-100 ms) it looks at
// every thread's microstates from outside (microstates.cc), and every ~10 ms it lists
// /proc/self/task to adopt threads that did not start through the pthread_create trampoline
// (raw clone(), libc-internal threads such as those of SIGEV_THREAD timers and POSIX AIO) and
// to retire the slots of threads that ended without the collector seeing them end.
// It never signals another thread. All signals are blocked in it; it is not profiled.
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector/clock_profiler.h"
#include "collector/hwc_profiler.h"
#include "collector/collector_cost.h"
#include "collector/data_writer.h"
#include "collector/microstates.h"
#include "collector/outside_sampler.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/sampler_thread.h"
#include "collector/overview_samples.h"
#include "collector/signal_guard.h"
#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/threads.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

constexpr uint64_t kScanEveryNs = 50000000;  // thread discovery latency
constexpr uint32_t kMaxTid = 1u << 22;      // PID_MAX_LIMIT on 64-bit kernels

int g_stop = 0;      // futex word: 1 asks the sampler to end
int g_running = 0;   // atomic: the sampler thread exists
uint64_t g_period_ns = 10000000;
uint64_t g_seen[kMaxTid / 64];  // tids listed by the current scan

struct Listing {
  uint32_t tids[kThreadPoolSize];
  int n;
  bool overflow;
};

void list_tid(uint32_t tid, void* arg) {
  auto* l = static_cast<Listing*>(arg);
  if (l->n < kThreadPoolSize) l->tids[l->n++] = tid;
  else l->overflow = true;
}

bool seen(uint32_t tid) { return tid < kMaxTid && (g_seen[tid / 64] >> (tid % 64)) & 1; }

// Threads that ended through the trampoline and may still be listed (exiting). An entry is
// dropped once two scans in a row no longer list its tid (one may have been taken before the
// thread noted its end); the kernel hands out tids cyclically, so a tid is not reused while it
// is still listed.
constexpr int kEndedRing = 64;
uint32_t g_ended[kEndedRing];          // atomic; 0: free
int g_ended_missing[kEndedRing];       // atomic; scans in a row that did not list it
unsigned g_ended_next = 0;             // atomic

bool recently_ended(uint32_t tid) {
  for (uint32_t& e : g_ended)
    if (__atomic_load_n(&e, __ATOMIC_ACQUIRE) == tid) return true;
  return false;
}

void drop_vanished_ended() {
  for (uint32_t& e : g_ended) {
    uint32_t tid = __atomic_load_n(&e, __ATOMIC_ACQUIRE);
    int& missing = g_ended_missing[&e - g_ended];
    if (!tid) continue;
    if (seen(tid)) __atomic_store_n(&missing, 0, __ATOMIC_RELAXED);
    else if (__atomic_add_fetch(&missing, 1, __ATOMIC_RELAXED) >= 2)
      __atomic_compare_exchange_n(&e, &tid, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
  }
}

void retire_vanished(ThreadState* ts, void* arg) {
  auto* self = static_cast<ThreadState*>(arg);
  if (ts == self || ts->is_helper) return;
  if (seen(ts->tid)) {
    ts->missing_scans = 0;
    return;
  }
  // A slot claimed after the listing was taken is missing once; only twice means gone.
  if (++ts->missing_scans < 2) return;
  ms_lock(ts);
  uint64_t last_exec = ts->ms.last_exec_ns;
  microstates_retire(self, ts);
  ms_unlock(ts);
  if (ts->adopted) {
    clock_retire_adopted(self, ts, last_exec);
  } else {
    clock_thread_end(ts);
    if (g_rt.active) {
      TextLine line;
      line.event(now_ns(), logev::kThreadEnd).kv_dec(logkey::kTid, ts->tid);
      line.kv(logkey::kUnseen, "1").write_to(g_rt.log_fd);
    }
  }
  data_thread_retire(ts);
  thread_release(ts);
}

void scan(ThreadState* self) {
  static Listing listing;  // only the sampler thread scans
  listing.n = 0;
  listing.overflow = false;
  if (!for_each_task(list_tid, &listing) || listing.overflow) return;
  // A thread created through the trampoline registers itself before its creation stops
  // counting as pending; while any is pending, an unknown tid may be one of those.
  bool starts_pending = threads_pending_starts() > 0;
  for (int i = 0; i < listing.n; ++i) {
    uint32_t tid = listing.tids[i];
    if (tid < kMaxTid) g_seen[tid / 64] |= uint64_t(1) << (tid % 64);
    if (tid == self->tid || starts_pending || is_emulator_thread(tid) || recently_ended(tid)) continue;
    // Created since the collector started: all of its CPU time belongs to the experiment. A
    // slot claimed on the thread by an interposer does not make it profiled.
    ThreadState* ts = thread_find(tid);
    if (!ts) microstates_adopt(tid, 0);
    else if (!ts->clock_started && !ts->is_helper) microstates_adopt_slot(ts, 0);
    hwc_adopt_tid(tid);  // counters of threads the collector did not see start
  }
  thread_for_each(retire_vanished, self);
  drop_vanished_ended();
  for (int i = 0; i < listing.n; ++i) {
    uint32_t tid = listing.tids[i];
    if (tid < kMaxTid) g_seen[tid / 64] = 0;
  }
}

struct LookContext {
  ThreadState* self;
  uint64_t flush_after_ns;
};

void look(ThreadState* ts, void* arg) {
  auto* ctx = static_cast<LookContext*>(arg);
  if (ts == ctx->self || !ms_trylock(ts)) return;
  if (__atomic_load_n(&ts->in_use, __ATOMIC_ACQUIRE) &&
      __atomic_load_n(&ts->ms.state, __ATOMIC_ACQUIRE) == kMsTrackActive) {
    clock_check_source(ts);
    microstates_look(ctx->self, ts, ctx->flush_after_ns);
  }
  ms_unlock(ts);
}

void* sampler_main(void*) {
  ThreadState* self = current_thread();
  if (self) {
    self->is_helper = true;
    LookContext ctx{self, g_period_ns * 10 > 20000000 ? g_period_ns * 10 : 20000000};
    uint64_t next = monotonic_ns() + g_period_ns;
    uint64_t last_scan = 0;
    while (!__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) {
      timespec abs{time_t(next / 1000000000ull), long(next % 1000000000ull)};
      syscall(SYS_futex, &g_stop, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &abs, nullptr,
              FUTEX_BITSET_MATCH_ANY);
      if (__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) break;
      uint64_t now = monotonic_ns();
      if (now < next) continue;  // woken early
      if (now - last_scan >= kScanEveryNs) {
        scan(self);
        last_scan = now;
      }
      thread_for_each(look, &ctx);
      overview_samples_tick(now);  // periodic samples (-S): no thread of their own beside this one
      next += g_period_ns;
      if (next <= now) next = now + g_period_ns;  // late (loaded machine): skip, never burst
    }
  }
  cost_add_helper_thread_cpu();
  __atomic_store_n(&g_running, 0, __ATOMIC_RELEASE);
  syscall(SYS_futex, &g_running, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, nullptr, nullptr, 0);
  return nullptr;
}

}  // namespace

void sampler_thread_note_thread_end(uint32_t tid) {
  unsigned i = __atomic_fetch_add(&g_ended_next, 1, __ATOMIC_RELAXED) % kEndedRing;
  __atomic_store_n(&g_ended_missing[i], 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_ended[i], tid, __ATOMIC_RELEASE);
}

bool sampler_thread_running() { return __atomic_load_n(&g_running, __ATOMIC_ACQUIRE) != 0; }

void sampler_thread_start() {
  if (!clock_enabled() || __atomic_load_n(&g_running, __ATOMIC_ACQUIRE)) return;
  if (outside_sampler_active()) return;  // collect samples this process (outside_sampler.h)
  if (g_rt.no_helper_threads) {
    log_warning("microstates", "forked child under qemu-user: no sampler thread, no wait/lock/owait times "
                "(docs/platforms.md)");
    return;
  }
  // Never faster than 10 ms: on this kernel (6.x, HZ=250) a thread that wakes more often than
  // the scheduler tick makes CPU-time timers of the other threads fire up to 5x less often
  // (measured: 17-43 instead of 93 signals per 300 ms of CPU at 1 ms), the program's own
  // ITIMER_PROF included. Microstate times do not depend on the period, only the statistical
  // split of blocked time between lock and other waits does.
  uint64_t p = g_rt.config.clock_interval_ns;
  g_period_ns = p < 10000000 ? 10000000 : p > 100000000 ? 100000000 : p;
  __atomic_store_n(&g_stop, 0, __ATOMIC_RELEASE);
  // Every signal blocked in the sampler (it inherits the creator's mask): the program's
  // process-directed signals must go to the program's threads.
  sigset_t all, old;
  sigfillset(&all);
  real_sigprocmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thr;
  __atomic_store_n(&g_running, 1, __ATOMIC_RELEASE);
  if (g_real.pthread_create(&thr, &attr, sampler_main, nullptr) != 0) {
    __atomic_store_n(&g_running, 0, __ATOMIC_RELEASE);
    log_warning("microstates", "could not start the sampler thread: no wait/lock/owait times");
  }
  pthread_attr_destroy(&attr);
  real_sigprocmask(SIG_SETMASK, &old, nullptr);
}

// In a forked child the sampler thread does not exist; clock_init() there starts a new one.
// Called by runtime_forget_parent_after_fork() (descendants).
void sampler_thread_forget_after_fork() {
  __atomic_store_n(&g_running, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_stop, 0, __ATOMIC_RELAXED);
  microstates_forget_tracks();
}

void sampler_thread_stop() {
  if (!__atomic_load_n(&g_running, __ATOMIC_ACQUIRE)) return;
  __atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &g_stop, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, nullptr, nullptr, 0);
  // Waits for the thread's goodbye (at most ~0.5 s: a stopped or starved sampler must not hold
  // up the program's exit).
  uint64_t give_up = monotonic_ns() + 500000000ull;
  while (__atomic_load_n(&g_running, __ATOMIC_ACQUIRE)) {
    uint64_t now = monotonic_ns();
    if (now >= give_up) break;
    timespec left{time_t((give_up - now) / 1000000000ull), long((give_up - now) % 1000000000ull)};
    syscall(SYS_futex, &g_running, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, &left, nullptr, 0);
  }
}

}  // namespace erkit::collector
