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
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct ThreadState;

// Starts the sampler thread. Call once after the calling thread and the pre-existing threads
// have their baselines.
void microstates_start();
// Stops the sampler thread (waits for its current pass to end, at most ~0.5 s).
void microstates_stop();
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
// Async-signal-safe. A thread that ended through the trampoline (its slot is released) stays
// listed in /proc/self/task until the kernel (or qemu-user, for much longer) is done with it:
// the sampler's scan must not adopt it as a new thread (sampler_thread.cc).
void microstates_note_thread_end(uint32_t tid);
// Process exit, after microstates_stop(): final accounting of every thread up to now.
void microstates_final_pass();
// In a fork child, before its experiment starts: forgets the parent's sampler and closes every
// track (sampler_thread.cc; calls microstates_forget_tracks()).
void microstates_forget_after_fork();
// Whether the sampler thread runs in this process (it also takes the periodic samples then).
bool microstates_running();
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
