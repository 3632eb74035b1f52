// The collector API's entry points (seed-spec §4.1). Programs call collector_sample() etc. in
// libcollectorAPI.so, which finds these with dlsym(RTLD_DEFAULT) when the collector is loaded
// and does nothing otherwise. Every function is ignored when no experiment is active.
#include <pthread.h>
#include <time.h>

#include "collector/dynamic_code.h"
#include "collector/pause_resume.h"
#include "collector/runtime.h"
#include "collector/overview_samples.h"
#include "collector/thread_state.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

// The kernel thread id behind a pthread_t: glibc's pthread_getcpuclockid returns the kernel's
// encoding of that thread's CPU clock, ((~tid) << 3) | 6.
int tid_of(pthread_t t) {
  clockid_t clk;
  if (pthread_getcpuclockid(t, &clk) != 0) return -1;
  return ~(int(clk) >> 3);
}

struct PauseRequest {
  int tid;
  int paused;
  bool found;
};

void set_paused(ThreadState* ts, void* arg) {
  auto* r = static_cast<PauseRequest*>(arg);
  if (int(__atomic_load_n(&ts->tid, __ATOMIC_SEQ_CST)) != r->tid) return;
  __atomic_store_n(&ts->paused, r->paused, __ATOMIC_RELEASE);
  r->found = true;
}

void thread_set_paused(pthread_t t, int paused) {
  if (!g_rt.active) return;
  PauseRequest r{tid_of(t), paused, false};
  if (r.tid <= 0) return;
  if (pthread_equal(t, pthread_self())) {
    if (ThreadState* ts = current_thread()) {
      __atomic_store_n(&ts->paused, paused, __ATOMIC_RELEASE);
      return;
    }
  }
  // Remembered first, then applied to the slot if there is one: a thread claiming its slot
  // meanwhile reads the pending state after publishing its tid (both sequentially consistent).
  set_pending_thread_pause(uint32_t(r.tid), paused);
  thread_for_each(set_paused, &r);
  if (r.found) take_pending_thread_pause(uint32_t(r.tid));
}

}  // namespace
}  // namespace erkit::collector

using namespace erkit::collector;

#define ERKIT_API extern "C" __attribute__((visibility("default")))

ERKIT_API void __erkit_collector_sample(const char* name) {
  overview_sample_record(erkit::format::kSampleApi, name ? name : "", false);
}
ERKIT_API void __erkit_collector_pause() { collection_pause("api"); }
ERKIT_API void __erkit_collector_resume() { collection_resume("api"); }
ERKIT_API void __erkit_collector_thread_pause(pthread_t t) { thread_set_paused(t, 1); }
ERKIT_API void __erkit_collector_thread_resume(pthread_t t) { thread_set_paused(t, 0); }
ERKIT_API void __erkit_collector_terminate_expt() { runtime_fini("terminated"); }
ERKIT_API void __erkit_collector_func_load(const char* name, const char* alias, const char* sourcename, void* vaddr,
                                           int size, int lntsize, const void* lntable) {
  dynamic_function_load(name, alias, sourcename, vaddr, size, lntsize, static_cast<const DynLine*>(lntable));
}
ERKIT_API void __erkit_collector_func_unload(void* vaddr) { dynamic_function_unload(vaddr); }
