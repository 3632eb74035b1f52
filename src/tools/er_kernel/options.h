// er_kernel's command line (seed-spec §9.1):
//   er_kernel -p on|hi|lo|<interval> [-t secs] [-q secs] [-T pid/tid ...] [-o name.er] [-d dir]
//             [-g group.erg] [-n] [-v] [-V] [load [args]]   |   er_kernel ... collect [collect-options] load
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace erkit::er_kernel {

struct Options {
  uint64_t interval_ns = 10007000;  // -p on
  double duration_s = 0;            // -t: 0 = until Ctrl-C / the load ends
  double quiet_s = 1;               // -q: before and after the load
  std::vector<std::pair<uint32_t, uint32_t>> threads;  // -T pid/tid
  std::string output, directory, group;  // -o, -d, -g
  bool dry_run = false, verbose = false;
  bool help = false, version = false;
  std::vector<std::string> load;    // the load command, if any
  bool with_collect = false;        // load[0] == "collect": a user experiment of the same run
};

struct ParseResult {
  std::optional<Options> options;
  std::string error;    // set when options is empty
  std::string warning;  // e.g. an interval rounded to the clock's resolution
};

ParseResult parse_options(const std::vector<std::string>& args);
void print_usage(FILE* out);

}  // namespace erkit::er_kernel
