// Synchronisation-wait tracing (-s): the recorder the generated lock wrappers call and the
// threshold a wait must exceed to be recorded (seed-spec §2.3): 0 for "all", a value the user
// gave, or six times the mean uncontended lock call measured at start ("on", "calibrate").
//
// Uncontended calls cost one try-lock: when the threshold is not 0 the wrappers first try the
// lock without waiting (pthread_mutex_trylock, sem_trywait, ...) and time only calls that would
// block, which are the only ones that can exceed a calibrated threshold anyway.
// Async-signal-safe: sync_wait(), sync_try_first().
#pragma once
#include <stdint.h>

#include "collector/interposer_support.h"

namespace erkit::collector {

// Reads the threshold from the configuration (calibrating if asked) and logs it. Not signal-safe.
void sync_trace_init();
// The threshold in nanoseconds.
uint64_t sync_threshold_ns();
// Whether wrappers may skip timing a call whose try-lock succeeds (threshold > 0).
bool sync_try_first();
// Records the wait of the call that began at t.start_ns if it exceeds the threshold; `object` is
// the lock, condition variable, barrier, semaphore or thread waited for.
void sync_wait(const TraceCall& t, uint32_t op, uint64_t object);

}  // namespace erkit::collector
