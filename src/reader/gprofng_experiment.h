// Reading experiments recorded by gprofng (binutils 2.40+) and Oracle Developer Studio 12.x
// `collect`, read-only (issue 24; docs/experiment-format.md "gprofng experiments"): their
// log.xml (the run, the clock-profiling interval and the layout of its packets), map.xml
// (segments of the load objects), the `profile` file's clock-profiling packets and the
// `data.frameinfo` file's call stacks, as an Experiment like erkit's own.
#pragma once
#include <string>

#include "reader/experiment.h"

namespace erkit::reader {

// A directory with log.xml and without erkit's own log.
bool is_gprofng_experiment(const std::string& path);
OpenResult open_gprofng_experiment(const std::string& path);

}  // namespace erkit::reader
