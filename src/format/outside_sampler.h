// Issue 16: records that collect's outside sampler writes beside the collector's (the
// microstates of a process sampled from outside, docs/clock-profiling.md). They go into two
// extra files of the experiment, in the layout of every data file (experiment_format.h), so
// that two writers (the collector inside the target, collect outside) never share a file:
//   "stacks.outside"   StackRecords (ids are stack_id() of the pcs, as the collector's)
//   "profile.outside"  ClockSampleRecords carrying kClockFlagBlockedSample|kClockFlagOutside
// The reader reads both when present (their absence is normal).
#pragma once
#include <cstdint>

#include "format/experiment_format.h"

namespace erkit::format {

inline constexpr const char* kOutsideSuffix = ".outside";
// Written by collect's sampler. With stack_id == kNoStackId the sample is a run-queue wait
// (Wait CPU) whose stack is the same thread's latest CPU sample, which only the collector
// knows: the reader gives it that stack (the next CPU sample's if none came before).
inline constexpr uint32_t kClockFlagOutside = 16u;

}  // namespace erkit::format
