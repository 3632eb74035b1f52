// collect's command line (seed-spec §3): parsed into Options, validated before anything runs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collect/hwc_events.h"

namespace erkit::collect {

struct Options {
  // Data selection
  bool clock_explicit = false;
  uint64_t clock_interval_ns = 10007000;  // 0 = off
  std::vector<std::string> hwc_counters;  // -h, as given
  std::vector<HwcCounter> hwc;            // -h, resolved (collect/hwc_events.h)
  bool clock_dataspace = false;           // -p on,+ : clock samples record data addresses
  std::string sync_trace = "off";         // -s
  bool heap_trace = false;                // -H
  bool mpi_trace = false;                 // -m
  bool io_trace = false;                  // -i
  int sample_interval_ms = 1000;          // -S, 0 = off
  // Experiment control
  int follow = 0;                         // -F: 0 off, 1 on, 2 all
  bool follow_explicit = false;           // -F given (-m on follows descendants by default)
  std::string follow_regex;               // -F =regex
  std::string java = "auto";              // -j: on, off, auto (on for a JVM target)
  std::string java_args;                  // -J
  int sample_signal = 0;                  // -l
  int pause_signal = 0;                   // -y
  bool pause_signal_resume = false;       // -y sig,r
  bool stop_after_exec = false;           // -x
  int attach_pid = 0;                     // -P: attach to this running process (issue 16)
  double attach_seconds = 0;              // -t: record for this long after attaching (0: until it ends)
  // Output
  std::string experiment_name;            // -o
  std::string directory;                  // -d
  std::string group;                      // -g
  std::string archive = "on";             // -A
  uint64_t size_limit_mb = 2000;          // -L, 0 = unlimited
  std::string output_file;                // -O
  // Other
  std::vector<std::string> comments;      // -C
  bool dry_run = false;                   // -n
  bool print_readme = false;              // -R
  bool version_only = false;              // -V, --version
  bool help = false;                      // --help
  bool verbose = false;                   // -v
  std::vector<std::string> warnings;      // printed before the run
  // Target
  std::vector<std::string> target;        // program and its arguments
};

struct ParseResult {
  std::optional<Options> options;
  std::string error;  // set when options is empty
};

ParseResult parse_options(const std::vector<std::string>& args);
// Every option collect knows, as written on the command line ("-p", ..., "--help"), for
// messages and the shell completion.
std::vector<std::string> option_names();
// The options that take a value, and the words that value may be (empty: free text).
struct OptionValues {
  char letter;
  std::vector<std::string> words;
};
const std::vector<OptionValues>& options_with_values();

// "-p" values: off|on|lo[w]|hi[gh]|<float>[m|u]. Returns the interval in ns (0 = off) or nullopt.
// `warning` receives the rounding message when the value was adjusted to the clock resolution.
std::optional<uint64_t> parse_clock_interval(const std::string& v, uint64_t resolution_ns,
                                             std::string* warning);
// Signal by full name (SIGUSR1), short name (USR1) or number; 0 on error.
int parse_signal(const std::string& v);
// Why a signal cannot serve as -l or -y (it cannot be caught, or the collector uses it), or null.
const char* unusable_signal(int sig);
std::string signal_name(int sig);

}  // namespace erkit::collect
