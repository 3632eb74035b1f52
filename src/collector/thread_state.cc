#include "collector/thread_state.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

constexpr int kPoolSize = 4096;
ThreadState g_pool[kPoolSize];
__thread ThreadState* t_state = nullptr;

}  // namespace

ThreadState* current_thread_if_any() { return t_state; }

ThreadState* current_thread() {
  if (t_state) return t_state;
  for (int i = 0; i < kPoolSize; ++i) {
    int expected = 0;
    if (__atomic_load_n(&g_pool[i].in_use, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&g_pool[i].in_use, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      ThreadState* ts = &g_pool[i];
      // memset is async-signal-safe; the slot's previous owner has released it.
      memset(reinterpret_cast<char*>(ts) + sizeof(int), 0, sizeof(ThreadState) - sizeof(int));
      ts->tid = uint32_t(syscall(SYS_gettid));
      t_state = ts;
      return ts;
    }
  }
  return nullptr;
}

void thread_release_current() {
  ThreadState* ts = t_state;
  if (!ts) return;
  t_state = nullptr;
  __atomic_store_n(&ts->in_use, 0, __ATOMIC_RELEASE);
}

void thread_for_each(void (*fn)(ThreadState*, void*), void* arg) {
  for (int i = 0; i < kPoolSize; ++i) {
    if (__atomic_load_n(&g_pool[i].in_use, __ATOMIC_ACQUIRE)) fn(&g_pool[i], arg);
  }
}

}  // namespace erkit::collector
