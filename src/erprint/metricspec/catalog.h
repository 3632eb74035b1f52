// Built-in metric names and aliases, as er_print's metric lists see them: a view of the one
// metric catalog, model/metric_defs.h.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "metricspec.h"

namespace erkit::metricspec {

struct KnownMetric {
  std::string_view name;
  std::string_view display_name;
  ValueKind kind;
  bool hwc;
};

std::span<const KnownMetric> known_metrics();
// Canonical name for an alias (unlock -> lock, ioread -> ioreadcnt); otherwise the input.
std::string_view canonical_name(std::string_view name);
std::optional<KnownMetric> find_known(std::string_view name);
bool is_static_name(std::string_view name);
// AvailableMetric for a built-in name (flavors e, i, a), for callers building their list.
std::optional<AvailableMetric> standard_metric(std::string_view name);

}  // namespace erkit::metricspec
