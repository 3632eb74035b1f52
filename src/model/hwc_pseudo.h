// The manual's pseudo-functions of hardware-counter data (seed-spec §2.2, [S11:4614-4626]):
// counts the collector recorded without a call stack go to a one-frame stack of their own.
//   collector_lost_hwc_overflow  overflows the kernel dropped (PERF_RECORD_LOST)
//   collector_final_counters     counts since the last overflow, at the thread's end
//   collector_hwc_ABORT          a counter that could not be read: collection stopped
// The model gives such records (hwc_event with a kHwcFlag* and no stack) a reserved stack id,
// which the stack resolver turns into the pseudo-function.
#pragma once
#include <cstdint>

#include "format/experiment_format.h"

namespace erkit::model {

inline constexpr uint64_t kHwcLostStackId = 0xfffffffffffffe01ull;
inline constexpr uint64_t kHwcFinalStackId = 0xfffffffffffffe02ull;
inline constexpr uint64_t kHwcAbortStackId = 0xfffffffffffffe03ull;

// The reserved stack of a record's flags, kNoStackId for an ordinary record.
inline uint64_t hwc_pseudo_stack(uint32_t flags) {
  if (flags & format::kHwcFlagAbort) return kHwcAbortStackId;
  if (flags & format::kHwcFlagLost) return kHwcLostStackId;
  if (flags & format::kHwcFlagFinal) return kHwcFinalStackId;
  return format::kNoStackId;
}

// The pseudo-function of a reserved stack id, nullptr for any other stack.
inline const char* hwc_pseudo_function(uint64_t stack_id) {
  switch (stack_id) {
    case kHwcLostStackId: return "collector_lost_hwc_overflow";
    case kHwcFinalStackId: return "collector_final_counters";
    case kHwcAbortStackId: return "collector_hwc_ABORT";
    default: return nullptr;
  }
}

}  // namespace erkit::model
