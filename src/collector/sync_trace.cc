#include "collector/sync_trace.h"

#include <pthread.h>

#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace logset = format::log_setting;
namespace {

using format::SyncEventRecord;

uint64_t g_threshold_ns = 0;
bool g_try_first = false;

constexpr uint64_t kCalibrationFactor = 6;  // seed-spec §2.3: "average uncontended time × 6"
constexpr int kCalibrationCalls = 2000;

// Times uncontended lock calls the way the wrappers time a call (a clock read on each side of
// the real function), so the threshold sits above what an uncontended call can ever show.
uint64_t calibrate_mean_ns() {
  auto lock = __atomic_load_n(&real::pthread_mutex_lock_any, __ATOMIC_ACQUIRE);
  if (!lock) return 0;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  uint64_t total = 0;
  for (int i = 0; i < kCalibrationCalls; ++i) {
    uint64_t t0 = now_ns();
    lock(&m);
    total += now_ns() - t0;
    pthread_mutex_unlock(&m);
  }
  return total / kCalibrationCalls;
}

}  // namespace

void sync_trace_init() {
  int s = g_rt.config.sync_trace;
  if (s == -1) return;
  TextLine line;
  line.event(now_ns(), logev::kSetting).kv(logkey::kName, logset::kSyncThreshold);
  if (s == -2) {
    uint64_t mean = calibrate_mean_ns();
    g_threshold_ns = mean * kCalibrationFactor;
    if (g_threshold_ns == 0) g_threshold_ns = 1;  // "calibrated" never means "record every call"
    line.kv(logkey::kMode, format::log_value::kCalibrated).kv_dec(logkey::kUncontendedMeanNs, int64_t(mean));
  } else {
    g_threshold_ns = uint64_t(s) * 1000;
    line.kv(logkey::kMode, s == 0 ? format::log_value::kAll : format::log_value::kValue);
  }
  line.kv_dec(logkey::kNs, int64_t(g_threshold_ns)).write_to(g_rt.log_fd);
  g_try_first = g_threshold_ns > 0;
  __atomic_store_n(&g_trace_on[kTraceSync], 1, __ATOMIC_RELEASE);
}

uint64_t sync_threshold_ns() { return g_threshold_ns; }
bool sync_try_first() { return g_try_first; }

void sync_wait(const TraceCall& t, uint32_t op, uint64_t object) {
  uint64_t end = t.end_ns;
  uint64_t wait = end > t.start_ns ? end - t.start_ns : 0;
  if (g_threshold_ns && wait <= g_threshold_ns) return;
  TraceWriter w = trace_enter();
  if (!w.ts) return;
  uint64_t stack = trace_stack(w.ts, t);
  auto* rec = static_cast<SyncEventRecord*>(
      record_reserve(w.ts, format::DataKind::kSync, format::kRecSyncEvent, sizeof(SyncEventRecord)));
  if (rec) {
    rec->tid = w.ts->tid;
    rec->tstamp_ns = end;  // grant time
    rec->stack_id = stack;
    rec->op = op;
    rec->reserved = 0;
    rec->wait_ns = wait;
    rec->object = object;
    record_commit(rec, format::kRecSyncEvent, sizeof(SyncEventRecord));
  }
  record_release(w.ts);
  trace_exit(w);
}

}  // namespace erkit::collector
