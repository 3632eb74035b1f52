// Metric sets for the metricspec tests.
#pragma once

#include <vector>

#include "catalog.h"
#include "metricspec.h"

namespace erkit::metricspec::testing {

inline std::vector<AvailableMetric> make(std::initializer_list<const char*> names) {
  std::vector<AvailableMetric> v;
  for (const char* n : names) {
    if (auto m = standard_metric(n)) {
      v.push_back(*m);
    } else {  // a raw hardware counter named at run time
      v.push_back(AvailableMetric{n, n, ValueKind::Count, true, kExclusive | kInclusive | kAttributed | kDataSpace});
    }
  }
  return v;
}

inline std::vector<AvailableMetric> clock() {
  return make({"user", "wall", "total", "system", "wait", "lock", "text", "data", "owait"});
}

}  // namespace erkit::metricspec::testing
