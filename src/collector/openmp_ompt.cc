// LLVM libomp (clang -fopenmp) through OMPT: libomp finds ompt_start_tool in the preloaded
// collector and calls initialize(), which registers the callbacks below and keeps ompt_get_state
// for the signal handler (omp_sample_state). Parallel regions get an id, a fork-point stack
// (unwound in parallel_begin, cached by call site) and a record at their end; implicit tasks
// carry the region's fork stack to the team's threads; sync-region and mutex callbacks keep the
// state for samples taken from another thread (blocked threads) and tell lock, critical, ordered
// and atomic waits apart where ompt_get_state says only "wait_mutex". Explicit tasks get an id
// and a creation stack (task_create), their samples that stack as fork stack, and a record when
// they complete (task_schedule). The types are those of the
// OpenMP 5.1 tools interface (omp-tools.h), declared here so no LLVM header is needed.
#include <stdint.h>

#include "collector/openmp_state.h"
#include "collector/runtime.h"
#include "collector/thread_state.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

union OmptData {
  uint64_t value;
  void* ptr;
};
struct OmptFrame {
  OmptData exit_frame, enter_frame;
  int exit_frame_flags, enter_frame_flags;
};
using OmptInterfaceFn = void (*)();
using OmptLookup = OmptInterfaceFn (*)(const char*);
using OmptSetCallback = int (*)(int event, OmptInterfaceFn callback);
struct OmptStartToolResult {
  int (*initialize)(OmptLookup, int, OmptData*);
  void (*finalize)(OmptData*);
  OmptData tool_data;
};

enum : int {
  kCbThreadBegin = 1, kCbParallelBegin = 3, kCbParallelEnd = 4, kCbTaskCreate = 5, kCbTaskSchedule = 6,
  kCbImplicitTask = 7,
  kCbSyncRegionWait = 16, kCbMutexAcquire = 26, kCbMutexAcquired = 27,
};
constexpr int kScopeBegin = 1;
constexpr int kTaskInitial = 1;

struct RegionInfo {
  uint64_t id, begin_ns, parent;
  uint32_t nthreads;
};
constexpr uint32_t kSlots = 1024;
RegionInfo g_regions[kSlots];  // by id modulo kSlots (parallel_data->value holds the id)

ThreadState* omp_thread() {
  if (!g_rt.active) return nullptr;
  ThreadState* ts = current_thread_if_any();
  return ts && !ts->in_collector ? ts : nullptr;
}
void set_state(ThreadState* ts, uint32_t s) { __atomic_store_n(&ts->omp_state, s, __ATOMIC_RELAXED); }

void on_thread_begin(int, OmptData*) {
  if (ThreadState* ts = omp_thread()) set_state(ts, format::kOmpIdle);
}

void on_parallel_begin(OmptData*, const OmptFrame* frame, OmptData* parallel, unsigned requested, int,
                       const void* codeptr) {
  ThreadState* ts = omp_thread();
  if (!ts) { parallel->value = 0; return; }
  // The outlined function, noted by the __kmpc_fork_call interposer (openmp_kmpc.cc).
  uint64_t outlined = __atomic_exchange_n(&ts->omp_microtask, uint64_t(0), __ATOMIC_RELAXED);
  uint64_t fork = omp_fork_stack(ts, reinterpret_cast<uint64_t>(codeptr),
                                 frame ? reinterpret_cast<uint64_t>(frame->enter_frame.ptr) : 0, outlined);
  uint64_t id = omp_region_begin(fork);
  RegionInfo& r = g_regions[id % kSlots];
  r.id = id;
  r.begin_ns = now_ns();
  r.parent = ts->omp_region;
  r.nthreads = requested;
  parallel->value = id;
}

void on_parallel_end(OmptData* parallel, OmptData*, int, const void*) {
  uint64_t id = parallel->value;
  ThreadState* ts = omp_thread();
  if (!id) return;
  const RegionInfo& r = g_regions[id % kSlots];
  if (r.id != id) return;
  omp_region_end(ts, id, r.begin_ns, r.parent, r.nthreads, format::kOmpRuntimeOmpt);
}

void on_implicit_task(int endpoint, OmptData* parallel, OmptData*, unsigned actual, unsigned index, int flags) {
  ThreadState* ts = omp_thread();
  if (!ts || (flags & kTaskInitial)) return;
  if (endpoint == kScopeBegin) {
    uint64_t id = parallel ? parallel->value : 0;
    if (id && g_regions[id % kSlots].id == id) g_regions[id % kSlots].nthreads = actual;
    __atomic_store_n(&ts->omp_region, id, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->omp_fork_stack, id ? omp_region_fork(id) : 0, __ATOMIC_RELAXED);
    set_state(ts, format::kOmpWork);
  } else if (index == 0) {
    // The master leaves its implicit task: back in the enclosing region (or serial code).
    uint64_t id = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
    uint64_t parent = id && g_regions[id % kSlots].id == id ? g_regions[id % kSlots].parent : 0;
    __atomic_store_n(&ts->omp_region, parent, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->omp_fork_stack, parent ? omp_region_fork(parent) : 0, __ATOMIC_RELAXED);
    set_state(ts, format::kOmpWork);
  } else {
    set_state(ts, format::kOmpIdle);
  }
}

void on_sync_region_wait(int kind, int endpoint, OmptData*, OmptData*, const void*) {
  ThreadState* ts = omp_thread();
  if (!ts) return;
  uint32_t s = format::kOmpImplicitBarrier;
  switch (kind) {
    case 3: s = format::kOmpExplicitBarrier; break;
    case 5: case 6: s = format::kOmpTaskWait; break;
    case 7: s = format::kOmpReduction; break;
    default: break;
  }
  set_state(ts, endpoint == kScopeBegin ? s : uint32_t(format::kOmpWork));
}

// Explicit tasks: by id modulo kTaskSlots (new_task_data->value holds the id). A task whose slot
// was taken by a newer one (more than kTaskSlots tasks live) is not recorded.
struct TaskInfo {
  uint64_t id, create_ns, create_stack, region, begin_ns;
  uint32_t create_tid;
  uint32_t suspended_state;  // the thread's state when the task was switched out (a taskwait)
};
constexpr uint32_t kTaskSlots = 4096;
TaskInfo g_tasks[kTaskSlots];
constexpr int kTaskExplicit = 0x4;
constexpr int kTaskComplete = 1, kTaskCancel = 3, kTaskLateFulfill = 6;

TaskInfo* task_of(const OmptData* d) {
  uint64_t id = d ? d->value : 0;
  if (!id) return nullptr;
  TaskInfo* t = &g_tasks[id % kTaskSlots];
  return t->id == id ? t : nullptr;
}

void on_task_create(OmptData*, const OmptFrame* frame, OmptData* task, int flags, int, const void* codeptr) {
  ThreadState* ts = omp_thread();
  if (!task) return;
  task->value = 0;
  if (!ts || !(flags & kTaskExplicit)) return;
  uint64_t id = omp_task_new();
  TaskInfo& t = g_tasks[id % kTaskSlots];
  t.id = id;
  t.create_ns = now_ns();
  // The task's entry first, noted by the __kmpc_omp_task_alloc interposer (openmp_kmpc.cc).
  t.create_stack = omp_fork_stack(ts, reinterpret_cast<uint64_t>(codeptr),
                                  frame ? reinterpret_cast<uint64_t>(frame->enter_frame.ptr) : 0,
                                  __atomic_load_n(&ts->omp_task_entry, __ATOMIC_RELAXED));
  t.region = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
  t.begin_ns = 0;
  t.create_tid = ts->tid;
  t.suspended_state = 0;
  task->value = id;
}

// The thread switches from `prior` to `next`: a completed task's record; the fork stack of the
// samples that follow (the next task's creation stack, or the thread's region's fork stack).
void on_task_schedule(OmptData* prior, int status, OmptData* next) {
  ThreadState* ts = omp_thread();
  if (!ts) return;
  TaskInfo* p = task_of(prior);
  if (p && (status == kTaskComplete || status == kTaskCancel || status == kTaskLateFulfill))
    omp_task_end(ts, p->id, p->begin_ns, p->create_stack, p->region, p->create_ns, p->create_tid,
                 format::kOmpRuntimeOmpt);
  else if (p)  // suspended (a task run inside its taskwait): its state when it is resumed
    p->suspended_state = __atomic_load_n(&ts->omp_state, __ATOMIC_RELAXED);
  // The state too, for the samples the sampler writes from outside (ompt_get_state says work
  // inside a task, but the callbacks left the barrier or taskwait the task runs in).
  if (TaskInfo* n = task_of(next)) {
    const bool resumed = n->begin_ns != 0;
    if (!resumed) n->begin_ns = now_ns();
    if (!ts->omp_in_task) ts->omp_state_outside_task = __atomic_load_n(&ts->omp_state, __ATOMIC_RELAXED);
    ts->omp_in_task = 1;
    __atomic_store_n(&ts->omp_fork_stack, n->create_stack, __ATOMIC_RELAXED);
    // A task resumed after a task it waited for: back in its wait (a task created in a task).
    set_state(ts, resumed && n->suspended_state ? n->suspended_state : uint32_t(format::kOmpWork));
  } else {
    uint64_t region = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->omp_fork_stack, region ? omp_region_fork(region) : 0, __ATOMIC_RELAXED);
    if (ts->omp_in_task) set_state(ts, ts->omp_state_outside_task);
    ts->omp_in_task = 0;
  }
}

uint32_t mutex_state(int kind) {
  switch (kind) {
    case 5: return format::kOmpCriticalWait;
    case 6: return format::kOmpAtomicWait;
    case 7: return format::kOmpOrderedWait;
    default: return format::kOmpLockWait;
  }
}

void on_mutex_acquire(int kind, unsigned, unsigned, uint64_t, const void*) {
  ThreadState* ts = omp_thread();
  if (!ts) return;
  ts->omp_mutex_kind = mutex_state(kind);
  set_state(ts, mutex_state(kind));
}

void on_mutex_acquired(int, uint64_t, const void*) {
  ThreadState* ts = omp_thread();
  if (!ts) return;
  ts->omp_mutex_kind = 0;
  set_state(ts, format::kOmpWork);
}

int ompt_initialize(OmptLookup lookup, int, OmptData*) {
  auto set = reinterpret_cast<OmptSetCallback>(lookup("ompt_set_callback"));
  auto get_state = reinterpret_cast<OmptGetState>(lookup("ompt_get_state"));
  if (!set) return 0;
  omp_mark_seen();
  set(kCbThreadBegin, reinterpret_cast<OmptInterfaceFn>(&on_thread_begin));
  set(kCbParallelBegin, reinterpret_cast<OmptInterfaceFn>(&on_parallel_begin));
  set(kCbParallelEnd, reinterpret_cast<OmptInterfaceFn>(&on_parallel_end));
  set(kCbImplicitTask, reinterpret_cast<OmptInterfaceFn>(&on_implicit_task));
  set(kCbTaskCreate, reinterpret_cast<OmptInterfaceFn>(&on_task_create));
  set(kCbTaskSchedule, reinterpret_cast<OmptInterfaceFn>(&on_task_schedule));
  set(kCbSyncRegionWait, reinterpret_cast<OmptInterfaceFn>(&on_sync_region_wait));
  set(kCbMutexAcquire, reinterpret_cast<OmptInterfaceFn>(&on_mutex_acquire));
  set(kCbMutexAcquired, reinterpret_cast<OmptInterfaceFn>(&on_mutex_acquired));
  __atomic_store_n(&g_ompt_get_state, get_state, __ATOMIC_RELEASE);
  return 1;  // keep the tool active
}

void ompt_finalize(OmptData*) { __atomic_store_n(&g_ompt_get_state, OmptGetState(nullptr), __ATOMIC_RELEASE); }

OmptStartToolResult g_tool = {&ompt_initialize, &ompt_finalize, {0}};

}  // namespace

extern "C" __attribute__((visibility("default"))) OmptStartToolResult* ompt_start_tool(unsigned, const char*) {
  return omp_enabled() ? &g_tool : nullptr;
}

}  // namespace erkit::collector
