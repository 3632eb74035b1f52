// An er_print session: the loaded experiments (the model), the current metric lists, sort
// keys, limits and output settings that commands read and change.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "metricspec.h"
#include "model/profile.h"
#include "views/function_views.h"

namespace erkit::erprint {

class Session {
 public:
  Session();
  // Opens an experiment, a group (.erg) or a descendant path. Returns false with *error set.
  bool load(const std::string& path, std::string* error);
  void finish_loading();  // sets default metrics once every experiment is in

  model::Profile& profile() { return profile_; }
  std::vector<metricspec::AvailableMetric> available() const;

  // Metric lists as columns for the views.
  std::vector<views::ViewColumn> function_columns() const;
  std::vector<views::ViewColumn> callers_callees_columns() const;

  metricspec::MetricList metrics, cmetrics;
  metricspec::SortKey sort_key, csort_key;
  views::SortSpec sort() const;
  views::SortSpec csort() const;
  size_t limit = 0;
  views::NameOptions names;
  FILE* out = stdout;
  std::vector<std::string> warnings;  // loading problems, printed once

 private:
  std::vector<views::ViewColumn> to_columns(const metricspec::MetricList& l) const;
  model::Profile profile_;
};

}  // namespace erkit::erprint
