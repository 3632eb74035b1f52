// Validation of every data record against what the experiment itself bounds (issue 11):
// flipped bytes in profile, synctrace or iotrace gave totals like 1 099 s of CPU in a 0.4 s run,
// with no warning. The run's log says when the run ended and which threads it had; a record
// outside that (a timestamp after the end, an unknown thread, a thread credited with more time
// than the run lasted, an I/O moving more bytes than a call can) is damage: it is dropped,
// counted, and reported with the file's name.
#pragma once
#include <cstdint>
#include <set>

#include "reader/experiment.h"

namespace erkit::reader {

struct RunBounds {
  // The latest timestamp a record may carry, and the most time (of all microstates, of waits,
  // of I/O) one thread can account for. Known only when the log holds the collector's exit
  // line: without it (a killed target) the log may end long before the data.
  bool time_known = false;
  uint64_t end_ns = 0;
  // The threads that may have recorded (the process and every thread_start/thread_end), used
  // only when the log describes the threads that wrote the data (at least one record's thread
  // is among them: synthetic experiments name arbitrary ones).
  std::set<uint32_t> tids;
};

// Slack over the last logged event: threads still running while the process exits write their
// last samples after the exit line, and a main thread's first sample includes what the process
// used before the collector started (loading its libraries).
inline constexpr uint64_t kEndSlackNs = 2'000'000'000;
// The most bytes one I/O call moves: Linux caps read/write at MAX_RW_COUNT (2 GiB less a page);
// stdio calls move more only by taking longer (256 bytes a nanosecond is beyond any memory).
inline constexpr uint64_t kMaxRwCount = 0x7ffff000;
inline constexpr uint64_t kMaxBytesPerNs = 256;

RunBounds run_bounds(const RunLog& log);

// Drops the records of e (clock, sync, I/O, heap, overview samples) that break the bounds and
// adds one problem per data file naming how many were dropped and why.
void validate_records(Experiment& e);

}  // namespace erkit::reader
