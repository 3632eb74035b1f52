// Clock profiling: one POSIX CPU-time timer per thread (SIGEV_THREAD_ID, SIGPROF). Each
// sample is weighted by the thread's real CPU time since its previous sample, split into user
// and system time from RUSAGE_THREAD, never by the nominal interval: on HZ=250 kernels CPU
// timers fire on 4 ms ticks and a 1 ms request arrives as 1 signal plus overruns.
#pragma once
#include <signal.h>

namespace erkit::collector {

struct ThreadState;

// Installs the SIGPROF handler and starts timers for the calling thread and every thread that
// already exists. Not signal-safe.
bool clock_init();
// Starts the timer of the calling (new) thread. Not signal-safe.
void clock_thread_start(ThreadState* ts);
// Stops the calling thread's timer.
void clock_thread_end(ThreadState* ts);
// Records the CPU time the thread used since its last sample (the tail shorter than one
// interval) at that sample's stack, so totals match the kernel's accounting. Not signal-safe.
void clock_flush_tail(ThreadState* ts);
// Flushes every thread's tail and stops the calling thread's timer (process exit).
void clock_fini();
// Whether a SIGPROF came from one of the collector's timers (the rest belong to the program).
bool clock_owns_signal(const siginfo_t* si);

}  // namespace erkit::collector
