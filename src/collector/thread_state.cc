#include "collector/thread_state.h"

#include "collector/pause_resume.h"

#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <type_traits>

namespace erkit::collector {
namespace {

ThreadState g_pool[kThreadPoolSize];
static_assert(std::is_trivially_default_constructible_v<ThreadState>, "the pool must live in .bss (see BlockCursor)");
int g_high = 0;  // atomic: slots [0, g_high) have been claimed at least once
__thread ThreadState* t_state = nullptr;

// Clears a freshly claimed slot up to (not including) its microstate part, whose lock the
// sampler may hold at this moment; the sampler re-checks in_use/ms.state under the lock and
// leaves a slot whose track is not active alone. The track itself is reset by its owner
// (microstates.cc) under the lock before it becomes active.
void reset_slot(ThreadState* ts, uint32_t tid) {
  constexpr size_t kFirst = offsetof(ThreadState, tid);
  constexpr size_t kEnd = offsetof(ThreadState, ms);
  memset(reinterpret_cast<char*>(ts) + kFirst, 0, kEnd - kFirst);
  __atomic_store_n(&ts->ms.state, kMsTrackInactive, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->tid, tid, __ATOMIC_SEQ_CST);
  // collector_thread_pause() may have named this thread before it had a slot.
  ts->paused = take_pending_thread_pause(tid);
}

ThreadState* claim_slot(uint32_t tid) {
  for (int i = 0; i < kThreadPoolSize; ++i) {
    int expected = 0;
    if (__atomic_load_n(&g_pool[i].in_use, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&g_pool[i].in_use, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      ThreadState* ts = &g_pool[i];
      reset_slot(ts, tid);
      int high = __atomic_load_n(&g_high, __ATOMIC_RELAXED);
      while (high < i + 1 && !__atomic_compare_exchange_n(&g_high, &high, i + 1, true,
                                                          __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      }
      __atomic_thread_fence(__ATOMIC_RELEASE);
      return ts;
    }
  }
  return nullptr;
}

}  // namespace

ThreadState* current_thread_if_any() { return t_state; }

ThreadState* current_thread() {
  if (t_state) return t_state;
  uint32_t tid = uint32_t(syscall(SYS_gettid));
  // A thread the collector adopted (it did not start through the trampoline) keeps its slot.
  ThreadState* ts = thread_find(tid);
  if (!ts) ts = claim_slot(tid);
  t_state = ts;
  return ts;
}

void thread_release_current() {
  ThreadState* ts = t_state;
  if (!ts) return;
  t_state = nullptr;
  __atomic_store_n(&ts->in_use, 0, __ATOMIC_RELEASE);
}

ThreadState* thread_claim_for(uint32_t tid) {
  if (thread_find(tid)) return nullptr;
  ThreadState* ts = claim_slot(tid);
  if (ts) ts->adopted = true;
  return ts;
}

void thread_release(ThreadState* ts) {
  if (ts) __atomic_store_n(&ts->in_use, 0, __ATOMIC_RELEASE);
}

ThreadState* thread_find(uint32_t tid) {
  int high = __atomic_load_n(&g_high, __ATOMIC_ACQUIRE);
  for (int i = 0; i < high; ++i) {
    if (__atomic_load_n(&g_pool[i].in_use, __ATOMIC_ACQUIRE) &&
        __atomic_load_n(&g_pool[i].tid, __ATOMIC_RELAXED) == tid)
      return &g_pool[i];
  }
  return nullptr;
}

bool is_pool_slot(const void* p) {
  auto a = reinterpret_cast<uintptr_t>(p);
  auto lo = reinterpret_cast<uintptr_t>(&g_pool[0]);
  return a >= lo && a < lo + sizeof g_pool && (a - lo) % sizeof(ThreadState) == 0;
}

void thread_for_each(void (*fn)(ThreadState*, void*), void* arg) {
  int high = __atomic_load_n(&g_high, __ATOMIC_ACQUIRE);
  for (int i = 0; i < high; ++i) {
    if (__atomic_load_n(&g_pool[i].in_use, __ATOMIC_ACQUIRE)) fn(&g_pool[i], arg);
  }
}

bool ms_trylock(ThreadState* ts) {
  int expected = 0;
  return __atomic_compare_exchange_n(&ts->ms_lock, &expected, 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

void ms_lock(ThreadState* ts) {
  while (!ms_trylock(ts)) sched_yield();
}

void ms_unlock(ThreadState* ts) { __atomic_store_n(&ts->ms_lock, 0, __ATOMIC_RELEASE); }

}  // namespace erkit::collector
