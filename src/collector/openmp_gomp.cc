// GCC libgomp (gcc/gfortran -fopenmp), which has no OMPT: its entry points are interposed here.
// GOMP_parallel runs the region's outlined function through a trampoline that sets the thread's
// state (work, then the implicit barrier when the function returns) and the region's fork-point
// stack; the synchronisation entry points set a wait state around the real call. A worker still
// "at the barrier" of a region that has ended is idle (omp_sample_state). Overhead (scheduling,
// forking) is told apart at analysis time by the runtime frame the sample sits in
// (src/model/viewmode/openmp_view.cc). GOMP_task runs each explicit task through a trampoline
// too: the task's samples carry its creation stack, and its record is written when it ends;
// GOMP_taskloop likewise, for each of the taskloop's tasks. Exported from both collector
// libraries: the cost is a few nanoseconds per region, task or synchronisation, not per iteration.
#include <stdint.h>

#include "collector/openmp_state.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/thread_state.h"
#include "format/experiment_format.h"

#define ERKIT_OMP_API extern "C" __attribute__((visibility("default")))

namespace erkit::collector {
namespace {

template <class F>
F real(F* slot, const char* name) {
  F f = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (!f) {
    f = reinterpret_cast<F>(next_symbol(name, nullptr));
    __atomic_store_n(slot, f, __ATOMIC_RELAXED);
  }
  return f;
}

// The calling thread's state when recording, else null (the wrapper then only forwards).
ThreadState* omp_thread() {
  if (!g_rt.active || !omp_enabled()) return nullptr;
  ThreadState* ts = current_thread_if_any();
  return ts && !ts->in_collector ? ts : nullptr;
}

struct Region {
  void (*fn)(void*);
  void* data;
  uint64_t id;
  uint64_t fork;
  uint32_t nthreads;  // atomic: threads that ran the outlined function
};

void trampoline(void* p) {
  auto* r = static_cast<Region*>(p);
  __atomic_add_fetch(&r->nthreads, 1, __ATOMIC_RELAXED);
  ThreadState* ts = current_thread_if_any();
  if (ts) {
    __atomic_store_n(&ts->omp_fork_stack, r->fork, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->omp_region, r->id, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->omp_state, uint32_t(format::kOmpWork), __ATOMIC_RELAXED);
  }
  r->fn(r->data);
  if (ts) __atomic_store_n(&ts->omp_state, uint32_t(format::kOmpImplicitBarrier), __ATOMIC_RELAXED);
}

// Runs `call` with the thread in `state`, then restores the previous state.
template <class Call>
void in_state(uint32_t state, Call call) {
  ThreadState* ts = omp_thread();
  if (!ts) return call();
  omp_mark_seen();
  uint32_t saved = __atomic_load_n(&ts->omp_state, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_state, state, __ATOMIC_RELAXED);
  call();
  __atomic_store_n(&ts->omp_state, saved, __ATOMIC_RELAXED);
}

// An explicit task (GOMP_task): the task's argument block is prefixed with this header, so the
// task runs through task_trampoline, which sets the thread's state and fork stack (the task's
// creation stack) and writes the task's record. libgomp copies the block (memcpy, or the cpyfn
// given, wrapped by task_copy to copy the header and call the program's cpyfn on the original
// data); an undeferred task without cpyfn runs on the block itself.
struct TaskHeader {
  void (*fn)(void*);
  void (*cpyfn)(void*, void*);
  void* data;        // the program's data (for its cpyfn)
  uint64_t offset;   // of the program's argument in the block
  uint64_t id, create_ns, create_stack, region;
  uint32_t create_tid, pad;
};
constexpr long kTaskBlock = 2048;  // larger arguments (or alignments above 64) run untracked

// Runs a task's body as OpenMP work under its creator's fork stack, then records the task.
void run_recorded_task(ThreadState* ts, const TaskHeader* h, void* arg, uint64_t id) {
  uint32_t saved_state = __atomic_load_n(&ts->omp_state, __ATOMIC_RELAXED);
  uint64_t saved_fork = __atomic_load_n(&ts->omp_fork_stack, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_fork_stack, h->create_stack, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_state, uint32_t(format::kOmpWork), __ATOMIC_RELAXED);
  uint64_t begin = now_ns();
  h->fn(arg);
  __atomic_store_n(&ts->omp_fork_stack, saved_fork, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_state, saved_state, __ATOMIC_RELAXED);
  omp_task_end(ts, id, begin, h->create_stack, h->region, h->create_ns, h->create_tid, format::kOmpRuntimeGomp);
}

void task_trampoline(void* p) {
  auto* h = static_cast<TaskHeader*>(p);
  void* arg = static_cast<char*>(p) + h->offset;
  ThreadState* ts = current_thread_if_any();
  if (!ts) return h->fn(arg);
  run_recorded_task(ts, h, arg, h->id);
}

void task_copy(void* dst, void* src) {
  auto* h = static_cast<TaskHeader*>(src);
  __builtin_memcpy(dst, h, sizeof(TaskHeader));
  h->cpyfn(static_cast<char*>(dst) + h->offset, h->data);
}

// A taskloop's tasks (GOMP_taskloop): libgomp writes each task's iteration bounds into the first
// two words of its argument block (and, with a reduction, reads and writes the third), so the
// block starts with three words for that before the header; the trampoline moves them into the
// program's argument. All the tasks of one taskloop share the header: each gets its id when it
// starts.
struct TaskloopBlock {
  uint64_t words[3];  // start, end (written by libgomp per task); the reduction's pointer
  TaskHeader h;
  uint64_t nwords;  // the words to move: 2, 3 with a reduction
};
constexpr uint64_t kTaskFlagNogroup = 1u << 11, kTaskFlagReduction = 1u << 12;  // gomp-constants.h

void taskloop_trampoline(void* p) {
  auto* b = static_cast<TaskloopBlock*>(p);
  TaskHeader* h = &b->h;
  char* arg = static_cast<char*>(p) + h->offset;
  __builtin_memcpy(arg, b->words, b->nwords * sizeof(uint64_t));
  ThreadState* ts = current_thread_if_any();
  if (!ts) return h->fn(arg);
  run_recorded_task(ts, h, arg, omp_task_new());
}

void taskloop_copy(void* dst, void* src) {
  auto* b = static_cast<TaskloopBlock*>(src);
  __builtin_memcpy(dst, b, sizeof(TaskloopBlock));
  b->h.cpyfn(static_cast<char*>(dst) + b->h.offset, b->h.data);
}

using VoidFn = void (*)();
using PtrFn = void (*)(void*);
using ParallelFn = void (*)(void (*)(void*), void*, unsigned, unsigned);
ParallelFn g_parallel;
using TaskFn = void (*)(void (*)(void*), void*, void (*)(void*, void*), long, long, bool, unsigned, void**, int, void*);
TaskFn g_task;
template <class T>
using TaskloopFn = void (*)(void (*)(void*), void*, void (*)(void*, void*), long, long, unsigned, unsigned long, int, T,
                            T, T);
TaskloopFn<long> g_taskloop;
TaskloopFn<unsigned long long> g_taskloop_ull;
VoidFn g_barrier, g_critical_start, g_atomic_start, g_ordered_start, g_loop_end, g_sections_end, g_taskwait,
    g_taskgroup_end;
PtrFn g_critical_name_start, g_set_lock, g_set_nest_lock, g_set_lock_f, g_set_nest_lock_f;

}  // namespace

ERKIT_OMP_API void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  ParallelFn f = real(&g_parallel, "GOMP_parallel");
  ThreadState* ts = omp_thread();
  if (!ts || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return f(fn, data, num_threads, flags);
  uint64_t begin = now_ns();
  uint32_t saved_state = ts->omp_state;
  uint64_t saved_region = ts->omp_region, saved_fork = ts->omp_fork_stack;
  __atomic_store_n(&ts->omp_state, uint32_t(format::kOmpOverhead), __ATOMIC_RELAXED);
  Region r{fn, data, 0, 0, 0};
  r.fork = omp_fork_stack(ts, reinterpret_cast<uint64_t>(__builtin_return_address(0)),
                          reinterpret_cast<uint64_t>(__builtin_frame_address(0)), reinterpret_cast<uint64_t>(fn));
  r.id = omp_region_begin(r.fork);
  f(trampoline, &r, num_threads, flags);
  __atomic_store_n(&ts->omp_fork_stack, saved_fork, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_region, saved_region, __ATOMIC_RELAXED);
  __atomic_store_n(&ts->omp_state, saved_state, __ATOMIC_RELAXED);
  omp_region_end(ts, r.id, begin, saved_region, r.nthreads, format::kOmpRuntimeGomp);
}

// GCC 11+'s GOMP_task (libgomp task.c): the task function and its argument, wrapped (TaskHeader).
ERKIT_OMP_API void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size, long arg_align,
                             bool if_clause, unsigned flags, void** depend, int priority, void* detach) {
  TaskFn f = real(&g_task, "GOMP_task");
  ThreadState* ts = omp_thread();
  long align = arg_align > long(alignof(TaskHeader)) ? arg_align : long(alignof(TaskHeader));
  long offset = (long(sizeof(TaskHeader)) + align - 1) / align * align;
  if (!ts || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED) || align > 64 || arg_size < 0 ||
      offset + arg_size > kTaskBlock)
    return f(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
  alignas(64) unsigned char block[kTaskBlock];
  auto* h = reinterpret_cast<TaskHeader*>(block);
  h->fn = fn;
  h->cpyfn = cpyfn;
  h->data = data;
  h->offset = uint64_t(offset);
  h->id = omp_task_new();
  h->create_ns = now_ns();
  h->create_stack = omp_fork_stack(ts, reinterpret_cast<uint64_t>(__builtin_return_address(0)),
                                   reinterpret_cast<uint64_t>(__builtin_frame_address(0)), reinterpret_cast<uint64_t>(fn));
  h->region = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
  h->create_tid = ts->tid;
  h->pad = 0;
  if (!cpyfn && arg_size > 0) __builtin_memcpy(block + offset, data, size_t(arg_size));
  f(task_trampoline, block, cpyfn ? task_copy : nullptr, offset + arg_size, align, if_clause, flags, depend, priority,
    detach);
}

// GOMP_taskloop / GOMP_taskloop_ull (libgomp taskloop.c): the tasks through taskloop_trampoline;
// the encountering thread waits for them at the end (the taskloop's implicit taskgroup, unless
// nogroup), inside the real call: the call is a taskwait, where the thread also runs tasks.
template <class T>
void taskloop(TaskloopFn<T> f, void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
              long arg_align, unsigned flags, unsigned long num_tasks, int priority, T start, T end, T step,
              void* ret, void* frame) {
  ThreadState* ts = omp_thread();
  long align = arg_align > long(alignof(TaskloopBlock)) ? arg_align : long(alignof(TaskloopBlock));
  long offset = (long(sizeof(TaskloopBlock)) + align - 1) / align * align;
  const bool reduction = (flags & kTaskFlagReduction) != 0;
  const uint64_t nwords = reduction ? 3 : 2;
  if (!ts || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED) || align > 64 || arg_size < long(nwords * sizeof(uint64_t)) ||
      offset + arg_size > kTaskBlock)
    return f(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step);
  alignas(64) unsigned char block[kTaskBlock];
  auto* b = reinterpret_cast<TaskloopBlock*>(block);
  __builtin_memcpy(b->words, data, nwords * sizeof(uint64_t));
  b->nwords = nwords;
  TaskHeader* h = &b->h;
  h->fn = fn;
  h->cpyfn = cpyfn;
  h->data = data;
  h->offset = uint64_t(offset);
  h->id = 0;  // per task, when it starts
  h->create_ns = now_ns();
  h->create_stack = omp_fork_stack(ts, reinterpret_cast<uint64_t>(ret), reinterpret_cast<uint64_t>(frame),
                                   reinterpret_cast<uint64_t>(fn));
  h->region = __atomic_load_n(&ts->omp_region, __ATOMIC_RELAXED);
  h->create_tid = ts->tid;
  h->pad = 0;
  if (!cpyfn) __builtin_memcpy(block + offset, data, size_t(arg_size));
  auto call = [&] {
    f(taskloop_trampoline, block, cpyfn ? taskloop_copy : nullptr, offset + arg_size, align, flags, num_tasks,
      priority, start, end, step);
  };
  if (flags & kTaskFlagNogroup) call();
  else in_state(format::kOmpTaskWait, call);
  // The reduction's pointer as libgomp left it (GOMP_taskgroup_reduction_register).
  if (reduction) __builtin_memcpy(static_cast<char*>(data) + 2 * sizeof(uint64_t), &b->words[2], sizeof(uint64_t));
}

ERKIT_OMP_API void GOMP_taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                                 long arg_align, unsigned flags, unsigned long num_tasks, int priority, long start,
                                 long end, long step) {
  taskloop(real(&g_taskloop, "GOMP_taskloop"), fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start,
           end, step, __builtin_return_address(0), __builtin_frame_address(0));
}

ERKIT_OMP_API void GOMP_taskloop_ull(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                                     long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                                     unsigned long long start, unsigned long long end, unsigned long long step) {
  taskloop(real(&g_taskloop_ull, "GOMP_taskloop_ull"), fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
           priority, start, end, step, __builtin_return_address(0), __builtin_frame_address(0));
}

#define ERKIT_GOMP_VOID(name, slot, state) \
  ERKIT_OMP_API void name() { VoidFn f = real(&slot, #name); in_state(state, [&] { f(); }); }
#define ERKIT_GOMP_PTR(name, slot, state) \
  ERKIT_OMP_API void name(void* p) { PtrFn f = real(&slot, #name); in_state(state, [&] { f(p); }); }

ERKIT_GOMP_VOID(GOMP_barrier, g_barrier, format::kOmpExplicitBarrier)
ERKIT_GOMP_VOID(GOMP_loop_end, g_loop_end, format::kOmpImplicitBarrier)
ERKIT_GOMP_VOID(GOMP_sections_end, g_sections_end, format::kOmpImplicitBarrier)
ERKIT_GOMP_VOID(GOMP_taskwait, g_taskwait, format::kOmpTaskWait)
ERKIT_GOMP_VOID(GOMP_taskgroup_end, g_taskgroup_end, format::kOmpTaskWait)
ERKIT_GOMP_VOID(GOMP_critical_start, g_critical_start, format::kOmpCriticalWait)
ERKIT_GOMP_VOID(GOMP_atomic_start, g_atomic_start, format::kOmpAtomicWait)
ERKIT_GOMP_VOID(GOMP_ordered_start, g_ordered_start, format::kOmpOrderedWait)
ERKIT_GOMP_PTR(GOMP_critical_name_start, g_critical_name_start, format::kOmpCriticalWait)
ERKIT_GOMP_PTR(omp_set_lock, g_set_lock, format::kOmpLockWait)
ERKIT_GOMP_PTR(omp_set_nest_lock, g_set_nest_lock, format::kOmpLockWait)
// Fortran's entry points (libgomp's fortran.c reaches the C ones through internal aliases).
ERKIT_GOMP_PTR(omp_set_lock_, g_set_lock_f, format::kOmpLockWait)
ERKIT_GOMP_PTR(omp_set_nest_lock_, g_set_nest_lock_f, format::kOmpLockWait)

}  // namespace erkit::collector
