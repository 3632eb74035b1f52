// OpenMP support in the target (docs/openmp.md): each thread's OpenMP state and the fork point of
// the parallel region it works for, kept in its ThreadState by the runtime-specific parts
// (openmp_gomp.cc: GCC libgomp by interposition; openmp_ompt.cc: LLVM libomp through OMPT), and
// the parallel-region records. Async-signal-safe except where noted.
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct ThreadState;

// Whether OpenMP support is on: ERKIT_OPENMP=off in the environment turns it off (the wrappers
// then only forward, no OMPT tool starts), for measuring its cost (bench/openmp). Not signal-safe
// on its first call (getenv), which the wrappers and the OMPT start make.
bool omp_enabled();

// Whether an OpenMP runtime has been seen in this process: clock samples then carry the state
// (format::ClockSampleOmpRecord).
bool omp_seen();
void omp_mark_seen();

// The state and fork-point stack to record with a sample of `subject`; `own` when the sampled
// thread is the caller (its signal handler), so the runtime may be asked directly (OMPT).
uint32_t omp_sample_state(const ThreadState* subject, bool own, uint64_t* fork_stack);

// The call stack of the caller's caller's fork point (unwound from here, the collector's frames
// dropped), from a per-thread cache keyed by (a, b), a value identifying the call path cheaply
// (return address and frame address). A non-zero `outlined` (GOMP: the region's outlined
// function) is put first, as the stack's leaf, so the analysis can name the region's function.
uint64_t omp_fork_stack(ThreadState* ts, uint64_t a, uint64_t b, uint64_t outlined);

// A region's begin: a new region id, marked live; its end: no longer live, and its record.
uint64_t omp_region_begin(uint64_t fork_stack);
void omp_region_end(ThreadState* ts, uint64_t id, uint64_t begin_ns, uint64_t parent, uint32_t nthreads,
                    uint32_t runtime);
// Whether region `id` has begun and not yet ended; the fork stack of a live region.
bool omp_region_live(uint64_t id);
uint64_t omp_region_fork(uint64_t id);

// Explicit tasks: a task's id at its creation; its record when it completes (`ts` the thread
// that ran it; `create_stack` its creation point's stack, the fork stack of its samples).
uint64_t omp_task_new();
void omp_task_end(ThreadState* ts, uint64_t id, uint64_t begin_ns, uint64_t create_stack, uint64_t region,
                  uint64_t create_ns, uint32_t create_tid, uint32_t runtime);

// OMPT: the runtime's ompt_get_state (null when libomp did not start the tool).
using OmptGetState = int (*)(uint64_t* wait_id);
extern OmptGetState g_ompt_get_state;

}  // namespace erkit::collector
