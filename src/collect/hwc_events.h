// Hardware-counter profiling for collect -h (seed-spec §2.2): the counters this machine offers
// (generic perf events under the manual's alias names, hardware cache events, software events,
// libpfm4's tables for the running PMU, /sys/bus/event_source/devices/*/events), the parsing of
// "-h [+]name[~attr=value...][,interval]...", probing with perf_event_open, and the two counter
// lists collect prints with no arguments (§14.1).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace erkit::collect {

// One counter definition as collect resolves it and the collector opens it.
struct HwcCounter {
  std::string name;         // as the user gave it (alias or raw name), without '+' and attributes
  std::string perf_name;    // the perf/libpfm name it stands for
  std::string description;  // "CPU Cycles", ...
  uint32_t type = 0;        // perf_event_attr.type
  uint64_t config = 0, config1 = 0, config2 = 0;
  uint64_t interval = 0;    // sample_period
  std::string memory;       // "load", "store", "load-store" or "" (not memory-related)
  bool cycles = false;      // unit CPU-cycles: convertible to time
  bool dataspace = false;   // '+': record data addresses
  bool precise_addr = false;// the kernel gives the data address (PERF_SAMPLE_ADDR)
  int precise_ip = 0;       // ~precise=N
  bool exclude_user = false, exclude_kernel = true;
  bool software = false;
};

// A counter collect knows by name (the tables and lists).
struct HwcKnown {
  std::string name, perf_name, description;
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t default_interval = 0;
  std::string memory;
  bool cycles = false, software = false, precise_addr = false;
};

// The generic and software events under their names (aliases first).
const std::vector<HwcKnown>& hwc_builtin_events();

// Parses one -h argument ("name[,interval][,name2[,interval2]]..."). Appends to *out; false
// with *error on an unknown name, a bad interval or a bad attribute.
bool parse_hwc_spec(const std::string& spec, std::vector<HwcCounter>* out, std::string* error);

// Opens every counter once on collect itself (as a group per the PMU's rules) to check that
// this machine can count them together. False with *error naming the refused counters.
bool probe_hwc(const std::vector<HwcCounter>& counters, std::string* error);

// Why no hardware counter is available here ("" if some are): no PMU, perf_event_paranoid,
// a container, ...
std::string hwc_unavailable_reason();

// The two lists of the manual (§14.1), from what this machine offers.
void print_hwc_lists(FILE* out);

// The collector's ERKIT_HWC value: one "type:config:config1:config2:period:flags" per counter,
// separated by '/', then "/clock+" when clock profiling records data addresses.
std::string hwc_env_value(const std::vector<HwcCounter>& counters, bool clock_dataspace);
// The log lines ("0 hwc index=..."), one per counter.
std::vector<std::string> hwc_log_lines(const std::vector<HwcCounter>& counters);

}  // namespace erkit::collect
