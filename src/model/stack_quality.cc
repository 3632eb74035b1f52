#include "model/stack_quality.h"

#include "format/experiment_format.h"

namespace erkit::model {

StackQuality stack_quality(const reader::Experiment& e) {
  StackQuality q;
  for (const auto& c : e.clock) {
    if (c.flags & format::kClockFlagKernel) continue;
    ++q.samples;
    auto it = e.stacks.find(c.stack_id);
    if (it == e.stacks.end() || it->second.empty() || it->second.back() == format::kUnwindFailedPc) ++q.unwind_failed;
    else if (it->second.back() == format::kTruncatedMarkerPc) ++q.truncated;
  }
  return q;
}

}  // namespace erkit::model
