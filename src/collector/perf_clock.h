// Clock profiling at the requested rate (issue 16, item 2): one perf_event_open software
// `task-clock` event per thread, sample_period = the clock interval, counting the thread's
// user-mode CPU time (exclude_kernel: needed at perf_event_paranoid 2, and a sample is then
// always raised while the thread runs its own code, so no system call is ever interrupted).
// Each overflow is delivered to the thread itself as SIGPROF (F_SETOWN_EX F_OWNER_TID,
// F_SETSIG, O_ASYNC) with si_code POLL_IN and si_fd the event's descriptor, which names the
// thread's slot. The event is an hrtimer on the thread's own CPU time, so it fires every
// interval, not on scheduler ticks like POSIX CPU-time timers (4 ms at HZ=250).
// Where perf events are unavailable (perf_event_paranoid 3, seccomp, containers, qemu-user) or
// a descriptor cannot be placed high, the caller falls back to a POSIX CPU-time timer and the
// log gets one `clock_perf` warning.
#pragma once
#include <signal.h>
#include <stdint.h>

namespace erkit::collector {

struct ThreadState;

// Decides once per process whether perf events are tried: when collect ran with
// ERKIT_CLOCK_SOURCE=perf (Config::clock_perf), not under qemu-user. Not signal-safe.
void perf_clock_init();
// Whether perf events are being used for new threads.
bool perf_clock_active();
// Opens and starts the event of thread `ts->tid` (the calling thread or another thread of this
// process). False, with ts untouched, when it cannot (the caller uses a POSIX timer; the first
// failure disables perf events for the rest of the process and logs the warning).
bool perf_clock_start(ThreadState* ts);
// Stops and closes the thread's event (no-op without one). Not signal-safe.
void perf_clock_stop(ThreadState* ts);
// Whether a SIGPROF came from one of the collector's perf events (stopped ones included).
// Async-signal-safe.
bool perf_clock_owns_signal(const siginfo_t* si);
// The live slot a perf-event SIGPROF is for, or nullptr (event stopped meanwhile).
// Async-signal-safe.
ThreadState* perf_clock_slot_of(const siginfo_t* si);
// Called by the microstate sampler thread at each look: whether the thread's event descriptor
// still names its event. A program that closed every descriptor with a raw close_range() took
// it away (the event is gone with it); a new event is opened for the thread then. Returns false
// when the thread has lost its event and none could be opened (the caller starts a timer).
bool perf_clock_check(ThreadState* ts);
// In a forked child: the inherited descriptors name the parent's events; they are closed
// without touching the events. Not signal-safe.
void perf_clock_forget_after_fork();

}  // namespace erkit::collector
