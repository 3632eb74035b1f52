// Clock profiling: one POSIX CPU-time timer per thread (SIGEV_THREAD_ID, SIGPROF), whose
// sigev_value is the thread's ThreadState, so the handler knows whose sample it takes without
// trusting thread-local storage. Each sample is weighted by the thread's real CPU time since
// its previous sample, split into user and system time from RUSAGE_THREAD, never by the
// nominal interval: on HZ=250 kernels CPU timers fire on 4 ms ticks and a 1 ms request
// arrives as 1 signal plus overruns. The off-CPU microstates are added by microstates.cc.
#pragma once
#include <signal.h>
#include <stdint.h>

#include "format/experiment_format.h"

namespace erkit::collector {

struct ThreadState;

// Installs the SIGPROF handler, starts the calling thread's timer, adopts every thread that
// already exists and starts the microstate sampler. Not signal-safe.
bool clock_init();
bool clock_enabled();
// Starts the timer of the calling (new) thread. Not signal-safe.
void clock_thread_start(ThreadState* ts);
// Sampler thread, at each look: re-opens a perf event the program closed under the collector
// (raw close_range), or starts a timer in its place. Not signal-safe.
void clock_check_source(ThreadState* ts);
// Stops the calling thread's timer.
void clock_thread_end(ThreadState* ts);
// Records the CPU time the thread used since its last sample (the tail shorter than one
// interval) at that sample's stack, so totals match the kernel's accounting. Not signal-safe.
void clock_flush_tail(ThreadState* ts);
// Flushes every thread's tail, stops the sampler and the calling thread's timer (exit).
void clock_fini();
// Whether a SIGPROF came from one of the collector's timers (the rest belong to the program).
bool clock_owns_signal(const siginfo_t* si);

// Adoption of a thread that did not start through the collector's trampoline: a timer on the
// tid's CPU clock delivered to that tid. `cpu_before_ns` is the CPU time it had used before
// the experiment should count it (pre-existing threads: their CPU clock now; threads created
// since the collector started: 0). Not signal-safe.
bool clock_adopt(ThreadState* ts, uint64_t cpu_before_ns);
// An adopted thread has ended: deletes its timer and credits the CPU time it used after its
// last sample (`final_exec_ns`, its last known CPU total) to that sample's stack.
void clock_retire_adopted(ThreadState* writer, ThreadState* ts, uint64_t final_exec_ns);

// Writes one clock sample for `subject` through `writer`'s block cursors. Async-signal-safe.
void write_clock_record(ThreadState* writer, const ThreadState* subject, uint64_t stack_id,
                        const uint64_t ns[format::kMsCount], uint32_t flags);
// The same with the OpenMP state and fork stack given (time accumulated earlier, microstates.cc);
// omp_state 0 writes a plain sample.
void write_clock_record_omp(ThreadState* writer, const ThreadState* subject, uint64_t stack_id,
                            const uint64_t ns[format::kMsCount], uint32_t flags, uint32_t omp_state, uint64_t fork);

}  // namespace erkit::collector
