#include "collector/openmp_state.h"

#include <stdlib.h>

#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/stack_store.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "collector/unwind/unwind.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

int g_seen;  // atomic
uint64_t g_next_region;  // atomic
uint64_t g_next_task;    // atomic
// Live regions by id modulo the table size: the id while live, 0 once ended. More than
// kLiveSlots regions live at once (deep nesting) may alias; the worst case is an idle worker
// classified as waiting at the barrier of an ended region.
constexpr uint32_t kLiveSlots = 1024;
uint64_t g_live[kLiveSlots];
uint64_t g_fork[kLiveSlots];

// OMPT state -> OmpState (values of the OpenMP 5.1 ompt_state_t).
uint32_t from_ompt(int s, uint32_t mutex_kind) {
  switch (s) {
    case 0x000: case 0x001: return format::kOmpWork;
    case 0x002: return format::kOmpReduction;
    case 0x010: case 0x011: case 0x012: case 0x013: case 0x015: case 0x016: return format::kOmpImplicitBarrier;
    case 0x014: return format::kOmpExplicitBarrier;
    case 0x020: case 0x021: return format::kOmpTaskWait;
    case 0x040: return mutex_kind ? mutex_kind : format::kOmpLockWait;
    case 0x041: return format::kOmpLockWait;
    case 0x042: return format::kOmpCriticalWait;
    case 0x043: return format::kOmpAtomicWait;
    case 0x044: return format::kOmpOrderedWait;
    case 0x100: return format::kOmpIdle;
    case 0x101: return format::kOmpOverhead;
    default: return format::kOmpWork;
  }
}

}  // namespace

OmptGetState g_ompt_get_state;

bool omp_enabled() {
  static int enabled = -1;  // atomic; -1 not read yet
  int e = __atomic_load_n(&enabled, __ATOMIC_RELAXED);
  if (e < 0) {
    const char* v = getenv("ERKIT_OPENMP");
    e = !(v && (__builtin_strcmp(v, "off") == 0 || __builtin_strcmp(v, "0") == 0));
    __atomic_store_n(&enabled, e, __ATOMIC_RELAXED);
  }
  return e != 0;
}

bool omp_seen() { return __atomic_load_n(&g_seen, __ATOMIC_RELAXED) != 0; }
void omp_mark_seen() { __atomic_store_n(&g_seen, 1, __ATOMIC_RELAXED); }

uint32_t omp_sample_state(const ThreadState* ts, bool own, uint64_t* fork_stack) {
  uint32_t s = __atomic_load_n(&ts->omp_state, __ATOMIC_RELAXED);
  uint64_t region = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
  *fork_stack = __atomic_load_n(&ts->omp_fork_stack, __ATOMIC_RELAXED);
  OmptGetState get = __atomic_load_n(&g_ompt_get_state, __ATOMIC_RELAXED);
  if (own && get) {
    uint64_t wait_id = 0;
    s = from_ompt(get(&wait_id), ts->omp_mutex_kind);
  } else if (s == format::kOmpImplicitBarrier && region && !omp_region_live(region)) {
    s = format::kOmpIdle;  // GOMP: the worker's region has ended, it waits for the next one
  }
  if (s == format::kOmpNone) s = format::kOmpWork;
  if (s == format::kOmpIdle) *fork_stack = format::kNoStackId;
  return s;
}

uint64_t omp_fork_stack(ThreadState* ts, uint64_t a, uint64_t b, uint64_t outlined) {
  uint64_t key = (a * 0x9e3779b97f4a7c15ull ^ b) + outlined;
  if (!key) key = 1;
  for (int i = 0; i < 4; ++i)
    if (ts->omp_cache_key[i] == key) return ts->omp_cache_stack[i];
  // The collector's own code range (pc_in_collector), found once: without tracers nobody else
  // looks for it. Called from normal context (the GOMP wrapper, OMPT callbacks).
  static int ranged;  // atomic
  if (!__atomic_exchange_n(&ranged, 1, __ATOMIC_ACQ_REL)) trace_common_init();
  uint64_t all[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int m = unwind::unwind_from_here(0, bounds, all, int(format::kMaxStackFrames), &st);
  int first = 0;
  while (first < m && pc_in_collector(all[first])) ++first;
  int n = m - first;
  // The first frame is a return address: point it into the call, so it has the fork's line.
  if (n > 0 && all[first] > 1) all[first] -= 1;
  if (outlined && first > 0) all[--first] = outlined, ++n;
  if (st.failed && !st.truncated && m < int(format::kMaxStackFrames)) all[m] = format::kUnwindFailedPc, ++n;
  uint64_t id = n > 0 ? stack_intern(ts, all + first, n, st.truncated) : format::kNoStackId;
  uint32_t slot = ts->omp_cache_next++ & 3u;
  ts->omp_cache_key[slot] = key;
  ts->omp_cache_stack[slot] = id;
  return id;
}

uint64_t omp_region_begin(uint64_t fork_stack) {
  omp_mark_seen();
  uint64_t id = __atomic_add_fetch(&g_next_region, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&g_fork[id % kLiveSlots], fork_stack, __ATOMIC_RELAXED);
  __atomic_store_n(&g_live[id % kLiveSlots], id, __ATOMIC_RELEASE);
  return id;
}

bool omp_region_live(uint64_t id) { return __atomic_load_n(&g_live[id % kLiveSlots], __ATOMIC_ACQUIRE) == id; }
uint64_t omp_region_fork(uint64_t id) { return __atomic_load_n(&g_fork[id % kLiveSlots], __ATOMIC_RELAXED); }

void omp_region_end(ThreadState* ts, uint64_t id, uint64_t begin_ns, uint64_t parent, uint32_t nthreads,
                    uint32_t runtime) {
  uint64_t expected = id;
  __atomic_compare_exchange_n(&g_live[id % kLiveSlots], &expected, 0, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
  if (!ts || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  using format::OmpRegionRecord;
  auto* rec = static_cast<OmpRegionRecord*>(
      record_reserve(ts, format::DataKind::kProfile, format::kRecOmpRegion, sizeof(OmpRegionRecord)));
  if (rec) {
    uint64_t now = now_ns();
    rec->tid = ts->tid;
    rec->tstamp_ns = begin_ns;
    rec->stack_id = omp_region_fork(id);
    rec->duration_ns = now > begin_ns ? now - begin_ns : 0;
    rec->region_id = id;
    rec->parent_id = parent;
    rec->nthreads = nthreads;
    rec->runtime = runtime;
    record_commit(rec, format::kRecOmpRegion, sizeof(OmpRegionRecord));
  }
  record_release(ts);
}

uint64_t omp_task_new() {
  omp_mark_seen();
  return __atomic_add_fetch(&g_next_task, 1, __ATOMIC_RELAXED);
}

void omp_task_end(ThreadState* ts, uint64_t id, uint64_t begin_ns, uint64_t create_stack, uint64_t region,
                  uint64_t create_ns, uint32_t create_tid, uint32_t runtime) {
  if (!ts || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  using format::OmpTaskRecord;
  auto* rec = static_cast<OmpTaskRecord*>(
      record_reserve(ts, format::DataKind::kProfile, format::kRecOmpTask, sizeof(OmpTaskRecord)));
  if (rec) {
    uint64_t now = now_ns();
    rec->tid = ts->tid;
    rec->tstamp_ns = begin_ns;
    rec->stack_id = create_stack;
    rec->duration_ns = now > begin_ns ? now - begin_ns : 0;
    rec->task_id = id;
    rec->region_id = region;
    rec->create_ns = create_ns;
    rec->create_tid = create_tid;
    rec->runtime = runtime;
    record_commit(rec, format::kRecOmpTask, sizeof(OmpTaskRecord));
  }
  record_release(ts);
}

}  // namespace erkit::collector
