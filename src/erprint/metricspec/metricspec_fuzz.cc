// libFuzzer entry: metric and sort specs never crash, and resolved lists re-resolve unchanged.
#include <cstdlib>
#include <string>

#include "catalog.h"
#include "metricspec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace erkit::metricspec;
  static const std::vector<AvailableMetric> avail = {*standard_metric("user"), *standard_metric("syncn"),
                                                     *standard_metric("cycles")};
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto r = resolve_metrics(text, ListKind::Functions, avail);
  if (auto* ok = std::get_if<Resolved<MetricList>>(&r)) {
    auto again = resolve_metrics(ok->value.to_string(), ListKind::Functions, avail);
    auto* ok2 = std::get_if<Resolved<MetricList>>(&again);
    if (!ok2 || ok2->value.to_string() != ok->value.to_string()) std::abort();
    (void)resolve_sort(text, ListKind::Functions, ok->value, avail);
  }
  (void)resolve_default_metrics(text, ListKind::Functions, avail);
  return 0;
}
