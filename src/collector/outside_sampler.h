// Issue 16: the microstate sampler outside the target. When collect runs the sampler itself
// (ERKIT_SAMPLER=collect in collect's environment; collect then sets ERKIT_OUTSIDE_SAMPLER to
// the founder's pid), the founder process starts no collector thread: collect reads
// /proc/<pid>/task/* for the off-CPU microstates and writes them into the experiment's
// "profile.outside" and "stacks.outside" files (docs/clock-profiling.md, *The sampler in
// collect*), and periodic samples are taken at clock-profiling signals. Descendants (forked or
// exec'd) keep their own sampler thread.
#pragma once

namespace erkit::collector {

// Decided once, at experiment start of this process (runtime_start_experiment): whether collect
// samples this process from outside. Async-signal-safe after that.
void outside_sampler_decide();
bool outside_sampler_active();
// A forked child is never sampled from outside.
void outside_sampler_forget_after_fork();

}  // namespace erkit::collector
