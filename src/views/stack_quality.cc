#include "views/stack_quality.h"

#include <fmt/format.h>

#include "format/experiment_format.h"

namespace erkit::views {

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

std::string stack_quality_line(const StackQuality& q) {
  if (!q.samples) return "";
  auto pct = [&](uint64_t n) { return 100.0 * double(n) / double(q.samples); };
  return fmt::format("Clock samples: {}; unwind failures: {} ({:.1f} %); truncated stacks: {} ({:.1f} %)\n",
                     q.samples, q.unwind_failed, pct(q.unwind_failed), q.truncated, pct(q.truncated));
}

}  // namespace erkit::views
