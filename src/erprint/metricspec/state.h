// The metric/sort settings of one er_print session, with the command semantics:
// confirmations, "default", errors keeping the previous setting, and the callers-callees and
// data lists following the function list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "metricspec.h"

namespace erkit::metricspec {

struct Outcome {
  bool ok = true;
  std::vector<std::string> lines;  // "Warning: ...", "Error: ...", then the confirmation
};

class MetricState {
 public:
  MetricState(std::vector<AvailableMetric> avail, std::string dmetrics, std::string dsort);

  Outcome set_metrics(std::string_view spec);   // metrics
  Outcome set_sort(std::string_view spec);      // sort
  Outcome set_cmetrics(std::string_view spec);  // cmetrics
  Outcome set_csort(std::string_view spec);     // csort
  Outcome set_data_metrics(std::string_view spec);
  Outcome set_data_sort(std::string_view spec);

  const MetricList& functions() const { return fn_; }
  const MetricList& callers_callees() const { return cc_; }
  const MetricList& data() const { return data_; }
  const SortKey& sort() const { return sort_; }
  const SortKey& csort() const { return csort_; }
  const SortKey& data_sort() const { return dsort_key_; }
  const std::vector<std::string>& default_warnings() const { return default_warnings_; }

 private:
  void follow_functions();  // re-derive dependent lists and sorts
  Outcome set_list(std::string_view spec, ListKind kind, MetricList& target);
  Outcome set_sort_key(std::string_view spec, ListKind kind, const MetricList& list, SortKey& target);

  std::vector<AvailableMetric> avail_;
  std::string dmetrics_, dsort_;
  MetricList fn_, cc_, data_;
  SortKey sort_, csort_, dsort_key_;
  std::vector<std::string> default_warnings_;
};

}  // namespace erkit::metricspec
