// Overview samples (seed-spec §2.6): process-wide usage figures (getrusage, /proc/self) written
// to the "overview" file at start and end, every -S interval (from the microstate sampler thread
// when clock profiling runs, else from a helper thread of its own that sleeps on
// CLOCK_MONOTONIC; no signal interrupts the program's system calls), on the -l signal,
// around pause/resume, around fork/exec and on collector_sample(name).
// Issue 18: "sample" alone meant three things in the collector; these are the periodic
// ("overview") samples of the manual's sample_select, not clock-profile samples
// (clock_profiler.h) nor the sampler thread (sampler_thread.h). Renamed from samples.h
// (sample_record, samples_start, ...), which remains as a forwarding header.
#pragma once
#include <stdint.h>

namespace erkit::collector {

// Records one overview sample. Concurrent callers yield one sample: a caller that finds another sample
// being written returns false, unless `wait` (end of experiment), which waits for it.
// Async-signal-safe.
bool overview_sample_record(uint32_t reason, const char* label, bool wait = false);

// Starts periodic sampling (-S) and installs the -l handler. Not signal-safe.
void overview_samples_start();
// Called by the microstate sampler thread at each of its passes (CLOCK_MONOTONIC `now_ns`):
// where that thread runs, it takes the periodic samples, due every -S interval (late by at most
// its period, 10-100 ms), and overview_samples_start() starts no thread of its own.
void overview_samples_tick(uint64_t now_ns);
// Stops periodic sampling (the helper thread exits at its next wake-up).
void overview_samples_stop();
// In a forked child: the helper thread does not exist there, and numbering restarts.
void overview_samples_forget_after_fork();

}  // namespace erkit::collector
