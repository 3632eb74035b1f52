// Forwarding header (issue 18): the overview samples' functions are declared in
// collector/overview_samples.h under names that say which samples they are. These inline
// forwarders keep code written against the old names building; new code uses the new ones.
#pragma once
#include "collector/overview_samples.h"

namespace erkit::collector {

inline bool sample_record(uint32_t reason, const char* label, bool wait = false) {
  return overview_sample_record(reason, label, wait);
}
inline void samples_start() { overview_samples_start(); }
inline void samples_tick(uint64_t now_ns) { overview_samples_tick(now_ns); }
inline void samples_stop() { overview_samples_stop(); }
inline void samples_forget_after_fork() { overview_samples_forget_after_fork(); }

}  // namespace erkit::collector
