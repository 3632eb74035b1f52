// What a perf recording says about its run (`perf report --header-only`, or the '#' lines
// `perf script --header` puts before the samples): host, OS, architecture, CPUs and the
// time it was captured, for the header of an imported experiment (issue 15 item 9). perf
// records no working directory.
#pragma once
#include <cstdint>
#include <string>

namespace erkit::exporters {

struct PerfRunInfo {
  std::string host, os, arch;
  int64_t ncpus = 0;
  int64_t realtime_ns = 0;  // "captured on" (local time, to the second), 0 if not given
};

// Reads the "# key : value" lines of perf's header; lines it does not know are ignored.
PerfRunInfo parse_perf_header(const std::string& text);

}  // namespace erkit::exporters
