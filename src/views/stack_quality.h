// How complete an experiment's clock-profile stacks are (issue 15; counted in
// model/stack_quality.h), as a line of er_print's header and statistics, so that a user sees
// when call stacks lose their callers.
#pragma once
#include <string>

#include "model/stack_quality.h"

namespace erkit::views {

using model::stack_quality;
using model::StackQuality;

// "Clock samples: N; unwind failures: F (x.x %); truncated stacks: T (y.y %)\n", or "" when
// the experiment has no clock samples.
std::string stack_quality_line(const StackQuality& q);

}  // namespace erkit::views
