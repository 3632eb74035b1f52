#include "erprint/session.h"

#include <fmt/format.h>

#include <fstream>

#include "catalog.h"
#include "reader/experiment.h"

namespace erkit::erprint {

namespace {
constexpr const char* kDefaultMetrics =
    "e.%user:i.%user:i+syncn:i.%sync:e.%hwc:i.%hwc:i+leak:i+bleak:e.%mpitime:i.%mpitime:e.%kcycles:i.%kcycles:name";
constexpr const char* kDefaultSort = "e.user:e.hwc:i.sync:i.leak:e.mpitime:e.kcycles:name";
}  // namespace

Session::Session() = default;

bool Session::load(const std::string& path, std::string* error) {
  if (path.size() > 4 && path.substr(path.size() - 4) == ".erg") {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line) || line != "#analyzer experiment group") {
      *error = fmt::format("{}: not an experiment group", path);
      return false;
    }
    std::string dir = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/') + 1);
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      if (!load(line[0] == '/' ? line : dir + line, error)) return false;
    }
    return true;
  }
  auto r = reader::open_experiment(path);
  if (!r.experiment) {
    *error = r.error;
    return false;
  }
  for (const auto& p : r.experiment->problems)
    warnings.push_back(fmt::format("{}/{}: {}", r.experiment->path, p.file, p.message));
  if (r.experiment->incomplete_records)
    warnings.push_back(fmt::format("{}: {} records were left incomplete by the target's end and are skipped",
                                   r.experiment->path, r.experiment->incomplete_records));
  profile_.add_experiment(std::move(*r.experiment));
  return true;
}

std::vector<metricspec::AvailableMetric> Session::available() const {
  std::vector<metricspec::AvailableMetric> out;
  for (uint32_t m : profile_.available_metrics()) {
    if (auto a = metricspec::standard_metric(model::metric_def(m).name)) out.push_back(*a);
  }
  return out;
}

void Session::finish_loading() {
  auto avail = available();
  metrics = metricspec::resolve_default_metrics(kDefaultMetrics, metricspec::ListKind::Functions, avail).value;
  sort_key = metricspec::resolve_default_sort(kDefaultSort, metrics, avail);
  cmetrics = metricspec::derive_callers_callees(metrics, avail);
  csort_key = metricspec::derive_callers_callees_sort(sort_key, avail);
}

std::vector<views::ViewColumn> Session::to_columns(const metricspec::MetricList& l) const {
  std::vector<views::ViewColumn> cols;
  for (const auto& c : l.columns) {
    if (c.is_static() || !c.visible()) continue;
    uint32_t m = model::metric_index(c.name);
    if (m >= model::kMetricCount) continue;
    if (c.vis & (metricspec::kVisValue | metricspec::kVisTime)) cols.push_back({c.flavor, m, false});
    if (c.vis & metricspec::kVisPercent) cols.push_back({c.flavor, m, true});
  }
  return cols;
}

std::vector<views::ViewColumn> Session::function_columns() const { return to_columns(metrics); }
std::vector<views::ViewColumn> Session::callers_callees_columns() const { return to_columns(cmetrics); }

static views::SortSpec to_sort(const metricspec::SortKey& k) {
  views::SortSpec s;
  s.reverse = k.reverse;
  uint32_t m = model::metric_index(k.name);
  if (k.flavor == 0 || m >= model::kMetricCount) {
    s.flavor = 0;
    return s;
  }
  s.flavor = k.flavor;
  s.metric = m;
  return s;
}

views::SortSpec Session::sort() const { return to_sort(sort_key); }
views::SortSpec Session::csort() const { return to_sort(csort_key); }

}  // namespace erkit::erprint
