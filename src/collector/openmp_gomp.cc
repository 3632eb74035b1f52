// GCC libgomp (gcc/gfortran -fopenmp), which has no OMPT: its entry points are interposed here.
// GOMP_parallel runs the region's outlined function through a trampoline that sets the thread's
// state (work, then the implicit barrier when the function returns) and the region's fork-point
// stack; the synchronisation entry points set a wait state around the real call. A worker still
// "at the barrier" of a region that has ended is idle (omp_sample_state). Overhead (scheduling,
// forking) is told apart at analysis time by the runtime frame the sample sits in
// (src/model/viewmode/openmp_view.cc). Exported from both collector libraries: the cost is a few
// nanoseconds per region or synchronisation, not per iteration.
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

using VoidFn = void (*)();
using PtrFn = void (*)(void*);
using ParallelFn = void (*)(void (*)(void*), void*, unsigned, unsigned);
ParallelFn g_parallel;
VoidFn g_barrier, g_critical_start, g_atomic_start, g_ordered_start, g_loop_end, g_sections_end, g_taskwait;
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

#define ERKIT_GOMP_VOID(name, slot, state) \
  ERKIT_OMP_API void name() { VoidFn f = real(&slot, #name); in_state(state, [&] { f(); }); }
#define ERKIT_GOMP_PTR(name, slot, state) \
  ERKIT_OMP_API void name(void* p) { PtrFn f = real(&slot, #name); in_state(state, [&] { f(p); }); }

ERKIT_GOMP_VOID(GOMP_barrier, g_barrier, format::kOmpExplicitBarrier)
ERKIT_GOMP_VOID(GOMP_loop_end, g_loop_end, format::kOmpImplicitBarrier)
ERKIT_GOMP_VOID(GOMP_sections_end, g_sections_end, format::kOmpImplicitBarrier)
ERKIT_GOMP_VOID(GOMP_taskwait, g_taskwait, format::kOmpTaskWait)
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
