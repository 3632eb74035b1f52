// Overview samples (seed-spec §2.6): process-wide usage figures (getrusage, /proc/self) written
// to the "overview" file at start and end, every -S interval (from a helper thread that sleeps
// on CLOCK_MONOTONIC, so no signal interrupts the program's system calls), on the -l signal,
// around pause/resume, around fork/exec and on collector_sample(name).
#pragma once
#include <stdint.h>

namespace erkit::collector {

// Records one sample. Concurrent callers yield one sample: a caller that finds another sample
// being written returns false, unless `wait` (end of experiment), which waits for it.
// Async-signal-safe.
bool sample_record(uint32_t reason, const char* label, bool wait = false);

// Starts periodic sampling (-S) and installs the -l handler. Not signal-safe.
void samples_start();
// Stops periodic sampling (the helper thread exits at its next wake-up).
void samples_stop();
// In a forked child: the helper thread does not exist there, and numbering restarts.
void samples_forget_after_fork();

}  // namespace erkit::collector
