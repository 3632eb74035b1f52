// Raw counters in perf's own spellings for collect -h (issue 19): "pmu/term=value,.../" with the
// terms of /sys/bus/event_source/devices/<pmu>/format (e.g. "config:0-7,21"), config=,
// config1=, config2= on any PMU, and events of the PMU's events directory named inside
// ("cpu/mem-loads,ldlat=3/"). The counter list of -h is split with these groups kept whole.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace erkit::collect {

struct PerfEncoding {
  uint32_t type = 0;
  uint64_t config = 0, config1 = 0, config2 = 0;
};

// Whether `name` is a perf term spelling: "<pmu>/<terms>/" with at least one term.
bool is_perf_term_spelling(const std::string& name);

// Encodes "pmu/terms/" against the PMUs under `sysfs_root` (/sys/bus/event_source/devices).
// False with *error naming the PMU or the term that is not known.
bool encode_perf_terms(const std::string& sysfs_root, const std::string& name, PerfEncoding* out,
                       std::string* error);

// The fields of `s` between each `sep` (empty fields kept; one field when there is none).
std::vector<std::string> split_fields(const std::string& s, char sep);

// Splits a -h value at its commas, except inside "pmu/.../" groups that hold a term (an '=').
std::vector<std::string> split_counter_list(const std::string& spec);

}  // namespace erkit::collect
