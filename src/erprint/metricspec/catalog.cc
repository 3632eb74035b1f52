// er_print's view of the one metric catalog (model/metric_defs.h): names, display names, value
// kinds and aliases all come from there; nothing about a metric is defined here.
#include "catalog.h"

#include <vector>

#include "model/metric_defs.h"
#include "model/raw_counter_metrics.h"

namespace erkit::metricspec {

namespace {
ValueKind kind_of(model::MetricUnit unit, bool cycles) {
  if (cycles) return ValueKind::Cycles;
  return unit == model::MetricUnit::Nanoseconds ? ValueKind::Time : ValueKind::Count;
}

const std::vector<KnownMetric>& known() {
  // Rebuilt when a raw counter's metric is named (the experiments loaded one; issue 19).
  static std::vector<KnownMetric> all;
  static uint64_t generation = ~uint64_t(0);
  if (generation == model::raw_counter_generation()) return all;
  generation = model::raw_counter_generation();
  all.clear();
  for (const auto& d : model::metric_defs())
    if (!d.cycles_time && !d.name.empty())  // a counter's time form is the counter with '.' (issue 19)
      all.push_back({d.name, d.display, kind_of(d.unit, d.cycles), d.source == model::MetricSource::Hwc});
  for (const auto& n : model::named_only_metrics()) all.push_back({n.name, n.display, kind_of(n.unit, false), false});
  return all;
}
}  // namespace

std::span<const KnownMetric> known_metrics() { return known(); }

std::string_view canonical_name(std::string_view name) { return model::canonical_metric_name(name); }

std::optional<KnownMetric> find_known(std::string_view name) {
  name = canonical_name(name);
  for (const auto& k : known())
    if (k.name == name) return k;
  return std::nullopt;
}

bool is_static_name(std::string_view name) { return name == "name" || name == "size" || name == "address"; }

std::optional<AvailableMetric> standard_metric(std::string_view name) {
  auto k = find_known(name);
  if (!k) return std::nullopt;
  AvailableMetric m;
  m.name = std::string(k->name);
  m.display_name = std::string(k->display_name);
  m.kind = k->kind;
  m.hwc = k->hwc;
  return m;
}

}  // namespace erkit::metricspec
