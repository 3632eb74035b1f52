#include "model/raw_counter_metrics.h"

#include <cctype>

#include "model/metric_defs.h"

namespace erkit::model {

namespace detail {
MetricDef& raw_counter_slot(uint32_t index);  // metric_defs.cc
}

namespace {
uint64_t g_generation = 0;

bool builtin_name(const std::string& n) {
  const uint32_t m = metric_index(n);
  return m < kMetricCount && !metric_def(m).raw;
}
}  // namespace

std::string raw_counter_metric_name(std::string_view event) {
  if (auto p = event.rfind("::"); p != std::string_view::npos) event.remove_prefix(p + 2);
  // Each run of other characters becomes one separator: '.' if it holds ':' or '.', else '_'.
  std::string out;
  bool pending = false, dot = false;
  for (char c : event) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
      if (pending && !out.empty()) out += dot ? '.' : '_';
      pending = dot = false;
      out += c;
    } else {
      pending = true;
      dot |= c == ':' || c == '.';
    }
  }
  if (out.empty()) return "raw";
  if (builtin_name(out)) out = "raw_" + out;
  return out;
}

uint32_t hwc_counter_metric(std::string_view log_name) {
  if (log_name.empty()) return kMetricCount;
  const std::string given(log_name);
  if (uint32_t m = metric_index(given); m < kMetricCount) {
    const MetricDef& d = metric_def(m);
    if (d.source == MetricSource::Hwc && !d.cycles_time) return m;  // a named counter
  }
  const std::string name = raw_counter_metric_name(log_name);
  for (uint32_t i = kRawCounterFirst; i <= kRawCounterLast; ++i) {
    MetricDef& slot = detail::raw_counter_slot(i);
    if (slot.name == name) return i;
    if (!slot.name.empty()) continue;
    slot.name = name;
    slot.display = name + " Events";
    slot.short_display = name;
    ++g_generation;
    return i;
  }
  return kMetricCount;
}

std::string hwc_counter_metric_name(std::string_view log_name) {
  const uint32_t m = hwc_counter_metric(log_name);
  return m < kMetricCount ? metric_def(m).name : raw_counter_metric_name(log_name);
}

uint64_t raw_counter_generation() { return g_generation; }

}  // namespace erkit::model
