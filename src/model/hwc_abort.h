// collector_hwc_ABORT on loading (issue 19): an experiment whose collector could not set up or
// read a hardware counter for some thread (hwc_event records with kHwcFlagAbort, and a log
// warning each) is reported when it is loaded, so the counts it lacks are not taken for the
// whole (seed-spec §2.2: "the experiment records it and er_print shows the warning").
#pragma once
#include <string>

#include "reader/experiment.h"

namespace erkit::model {

// "" when no counter aborted; else one line naming how many counters of how many threads
// aborted and the collector's first reason.
std::string hwc_abort_warning(const reader::Experiment& e);

}  // namespace erkit::model
