#include "views/stack_quality.h"

#include <fmt/format.h>

namespace erkit::views {

std::string stack_quality_line(const StackQuality& q) {
  if (!q.samples) return "";
  auto pct = [&](uint64_t n) { return 100.0 * double(n) / double(q.samples); };
  return fmt::format("Clock samples: {}; unwind failures: {} ({:.1f} %); truncated stacks: {} ({:.1f} %)\n",
                     q.samples, q.unwind_failed, pct(q.unwind_failed), q.truncated, pct(q.truncated));
}

}  // namespace erkit::views
