#include "collector/pause_resume.h"

#include <errno.h>
#include <signal.h>

#include "collector/runtime.h"
#include "collector/overview_samples.h"
#include "collector/signal_guard.h"
#include "collector/text_line.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

void log_state(const char* event, const char* why) {
  TextLine line;
  line.event(now_ns(), event).kv(logkey::kReason, why).write_to(g_rt.log_fd);
}

void on_pause_signal(int, siginfo_t*, void*) {
  int saved = errno;
  if (__atomic_load_n(&g_rt.recording, __ATOMIC_ACQUIRE)) collection_pause("signal");
  else collection_resume("signal");
  errno = saved;
}

struct PendingPause {
  uint32_t tid;  // 0: free
  int paused;
};
PendingPause g_pending[64];

}  // namespace

void set_pending_thread_pause(uint32_t tid, int paused) {
  PendingPause* free_slot = nullptr;
  for (auto& p : g_pending) {
    uint32_t t = __atomic_load_n(&p.tid, __ATOMIC_SEQ_CST);
    if (t == tid) {
      __atomic_store_n(&p.paused, paused, __ATOMIC_SEQ_CST);
      return;
    }
    if (!t && !free_slot) free_slot = &p;
  }
  if (!free_slot) return;
  __atomic_store_n(&free_slot->paused, paused, __ATOMIC_SEQ_CST);
  uint32_t expected = 0;
  __atomic_compare_exchange_n(&free_slot->tid, &expected, tid, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int take_pending_thread_pause(uint32_t tid) {
  for (auto& p : g_pending) {
    if (__atomic_load_n(&p.tid, __ATOMIC_SEQ_CST) != tid) continue;
    int paused = __atomic_load_n(&p.paused, __ATOMIC_SEQ_CST);
    __atomic_store_n(&p.tid, 0, __ATOMIC_SEQ_CST);
    return paused;
  }
  return 0;
}

bool collection_pause(const char* why) {
  if (!g_rt.active || !__atomic_load_n(&g_rt.recording, __ATOMIC_ACQUIRE)) return false;
  overview_sample_record(format::kSamplePause, why, true);
  int expected = 1;
  if (!__atomic_compare_exchange_n(&g_rt.recording, &expected, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return false;
  log_state(logev::kPause, why);
  return true;
}

bool collection_resume(const char* why) {
  if (!g_rt.active) return false;
  int expected = 0;
  if (!__atomic_compare_exchange_n(&g_rt.recording, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return false;
  log_state(logev::kResume, why);
  overview_sample_record(format::kSampleResume, why, true);
  return true;
}

void pause_resume_start() {
  int sig = g_rt.config.pause_signal;
  if (sig <= 0) return;
  if (!install_collector_handler(sig, on_pause_signal))
    log_warning("pause_signal", "could not install the handler of the -y signal");
  if (!g_rt.config.pause_signal_starts_recording) {
    __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
    log_state(logev::kPause, "initial");
  }
}

}  // namespace erkit::collector
