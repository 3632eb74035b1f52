// Linux microstates for clock profiling (seed-spec §2.1, table 7-2): besides the user and
// system CPU time of the CPU-timer samples (clock_profiler.cc), every thread's life is split
// into Wait CPU (runnable, waiting for a CPU), User Lock (asleep in futex(2): mutexes,
// condition variables, semaphores, joins), Text/Data Page Fault (asleep outside any system
// call, i.e. in a fault: text if the faulting instruction's own page is not in memory) and
// Other Wait (any other sleep: sleep calls, I/O, poll, stopped). A blocked thread gets no
// CPU-timer signals and must not be signalled (EINTR), so the collector's sampler thread
// looks at it from outside: /proc/self/task/<tid>/schedstat gives exact on-CPU time and
// run-queue delay, so blocked time = wall - on-CPU - run-queue delay exactly; the class
// and the call stack come from /proc/self/task/<tid>/syscall (system call number, user stack
// and instruction pointers), unwound with the CFI unwinder while the thread is asleep.
// See docs/clock-profiling.md for the design and its error bounds. Not signal-safe.
// Defined in microstates.cc; the sampler thread that calls these is sampler_thread.h (issue 18:
// its entry points were declared here; this header still includes it for their callers).
#pragma once
#include <stdint.h>

#include "collector/sampler_thread.h"

namespace erkit::collector {

struct ThreadState;

// Baseline of the calling thread: at its start, counting from `created_ns` (CLOCK_MONOTONIC
// when pthread_create was called; its on-CPU time and run-queue delay from zero), or, with
// created_ns == 0 (the main thread at initialisation), from now.
void microstates_thread_start(ThreadState* ts, uint64_t created_ns);
// Adopts a thread that did not start through the trampoline: a slot, a timer on its CPU
// clock (CPU time before `cpu_before_ns` is not the experiment's), a microstate baseline.
// False if it has a slot already or cannot be adopted.
bool microstates_adopt(uint32_t tid, uint64_t cpu_before_ns);
// The same for a thread that has a slot already (claimed by an interposer on that thread)
// but was never set up for clock profiling.
bool microstates_adopt_slot(ThreadState* ts, uint64_t cpu_before_ns);
// Final accounting of the calling thread as it ends, before its slot is released.
void microstates_thread_end(ThreadState* ts);
// Process exit, after sampler_thread_stop(): final accounting of every thread up to now.
void microstates_final_pass();
void microstates_forget_tracks();

// One look at a thread from the sampler (the caller holds ts->ms_lock, the track is active).
// `writer` is the sampler's own state, whose cursors receive the records.
void microstates_look(ThreadState* writer, ThreadState* ts, uint64_t flush_after_ns);
// Opens the thread's /proc files and takes the baseline (the caller holds ts->ms_lock):
// kNow: from this moment; kBirth: from birth_ns with CPU time and run-queue delay from zero;
// kBirthUnknown: from zero, assuming the thread never slept before (adopted threads).
enum class Baseline { kNow, kBirth, kBirthUnknown };
bool microstates_baseline(ThreadState* ts, Baseline from, uint64_t birth_ns);
// A thread that ended unseen: writes what is pending and closes the track (the caller holds
// ts->ms_lock). Its time since the last look is lost (at most one sampler period).
void microstates_retire(ThreadState* writer, ThreadState* ts);
// Closes the thread's /proc files and marks the track ended (the caller holds ts->ms_lock).
void microstates_close(ThreadState* ts);

}  // namespace erkit::collector
