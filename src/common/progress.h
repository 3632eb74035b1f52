// Progress of a long operation on stderr (issue 26): shown only when stderr is a terminal,
// only once the operation has run longer than a delay (1 s; ERKIT_PROGRESS_DELAY_MS
// overrides it), at most ten times a second, on one line that is erased when the operation
// ends. Nothing at all when stderr is a file or a pipe, or after Progress::disable() (JSON
// mode), so scripts never see it.
//
//   common::Progress p("symbolising", "test.1.er");
//   for (...) p.tick();          // cheap: looks at the clock every 4096 ticks
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace erkit::common {

class Progress {
 public:
  Progress(std::string what, std::string subject, uint64_t total = 0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void tick() {
    if ((++done_ & 4095) == 0 && active_) poll();
  }
  void set(uint64_t done) {
    done_ = done;
    if (active_) poll();
  }

  // The tool whose name starts the line ("er_print"); set once by main.
  static void set_tool(const char* tool);
  // No progress from now on (JSON output, or the user asked for none).
  static void disable();
  // Whether progress would be shown at all (stderr is a terminal and it was not disabled).
  static bool enabled();

 private:
  void poll();
  std::string what_, subject_;
  uint64_t total_, done_ = 0;
  bool active_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace erkit::common
