// collect's part of the experiment's run log: the header written before the target starts
// (magic, collect's settings), the target's pid, and the "end" event once the target ended.
#pragma once
#include <sys/types.h>

#include <string>

#include "collect/options.h"

namespace erkit::collect {

struct LaunchContext;

class ExperimentLog {
 public:
  explicit ExperimentLog(std::string experiment_dir);
  void write_header(const Options& o, const LaunchContext& ctx);
  void write_target_pid(pid_t pid);
  void write_end(int wait_status);
  // notes file (-C comments)
  void write_notes(const std::vector<std::string>& comments);

 private:
  void append(const std::string& line);
  std::string dir_;
};

}  // namespace erkit::collect
