// How complete an experiment's clock-profile stacks are (issue 15): samples whose unwind
// stopped early (their stack ends in <Unknown>), and stacks cut at the depth limit. Shown by
// er_print's header and statistics so that a user sees when call stacks lose their callers.
#pragma once
#include <cstdint>
#include <string>

#include "reader/experiment.h"

namespace erkit::views {

struct StackQuality {
  uint64_t samples = 0;        // clock samples
  uint64_t unwind_failed = 0;  // ... whose stack ends where the unwinder stopped (or is missing)
  uint64_t truncated = 0;      // ... whose stack was cut at the frame limit
};

StackQuality stack_quality(const reader::Experiment& e);
// "Clock samples: N; unwind failures: F (x.x %); truncated stacks: T (y.y %)\n", or "" when
// the experiment has no clock samples.
std::string stack_quality_line(const StackQuality& q);

}  // namespace erkit::views
