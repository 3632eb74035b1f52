// Parsing `perf script` text: samples with their call chains, and (with --show-mmap-events)
// the mappings of executable files. Accepts perf's default layout
//   comm  pid [cpu] sec.usec:  period event:
//   \t ip sym+off (dso)
// and the narrower one er_import asks for (-F pid,tid,time,period,event,ip,dso --ns).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace erkit::exporters {

struct PerfFrame {
  uint64_t ip = 0;   // as printed: perf 6 prints the object-relative address of mapped code
  std::string dso;   // the object in parentheses: a path, [kernel.kallsyms], [unknown], [vdso]...
};

struct PerfSample {
  int64_t pid = -1, tid = -1;
  uint64_t time_ns = 0;
  uint64_t period = 0;  // 0 when not printed
  std::string event;    // e.g. "cpu-clock" (modifiers such as ":u" kept)
  std::vector<PerfFrame> frames;  // leaf first
};

struct PerfMmap {
  int64_t pid = -1;
  uint64_t time_ns = 0;
  uint64_t start = 0, len = 0, pgoff = 0;
  std::string prot;  // "r-xp" (MMAP2) or "x"
  std::string path;
};

struct PerfScript {
  std::vector<PerfSample> samples;
  std::vector<PerfMmap> mmaps;
  uint64_t unparsed_lines = 0;  // lines that fit no known shape
  std::string first_unparsed;
};

PerfScript parse_perf_script(std::istream& in);

// "1673.142989" or "1673.142989473" (seconds) to nanoseconds, exactly.
bool parse_perf_time(const std::string& s, uint64_t* ns);

}  // namespace erkit::exporters
