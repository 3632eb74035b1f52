// How complete an experiment's clock-profile stacks are (issue 15): samples whose unwind
// stopped early (their stack ends in <Unknown>), and stacks cut at the depth limit. Rendered
// by views/stack_quality.h in er_print's header and statistics.
#pragma once
#include <cstdint>

#include "reader/experiment.h"

namespace erkit::model {

struct StackQuality {
  uint64_t samples = 0;        // clock samples
  uint64_t unwind_failed = 0;  // ... whose stack ends where the unwinder stopped (or is missing)
  uint64_t truncated = 0;      // ... whose stack was cut at the frame limit
};

StackQuality stack_quality(const reader::Experiment& e);

}  // namespace erkit::model
