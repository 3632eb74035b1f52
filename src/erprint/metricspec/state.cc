#include "state.h"

#include <cctype>

namespace erkit::metricspec {

namespace {
bool is_default(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s == "default";
}
void add_warnings(Outcome& o, const std::vector<std::string>& w) {
  for (const auto& s : w) o.lines.push_back("Warning: " + s);
}
Outcome failure(const SpecError& e) {
  Outcome o;
  o.ok = false;
  o.lines.push_back("Error: " + e.message + "; setting unchanged");
  return o;
}
}  // namespace

MetricState::MetricState(std::vector<AvailableMetric> avail, std::string dmetrics, std::string dsort)
    : avail_(std::move(avail)), dmetrics_(std::move(dmetrics)), dsort_(std::move(dsort)) {
  auto r = resolve_default_metrics(dmetrics_, ListKind::Functions, avail_);
  fn_ = std::move(r.value);
  default_warnings_ = std::move(r.warnings);
  sort_ = resolve_default_sort(dsort_, fn_, avail_);
  follow_functions();
}

void MetricState::follow_functions() {
  cc_ = derive_callers_callees(fn_, avail_);
  data_ = derive_data(fn_, avail_);
  csort_ = derive_callers_callees_sort(sort_, avail_);
  dsort_key_ = derive_data_sort(sort_, data_, avail_);
}

Outcome MetricState::set_metrics(std::string_view spec) {
  Outcome o;
  if (is_default(spec)) {
    fn_ = resolve_default_metrics(dmetrics_, ListKind::Functions, avail_).value;
  } else {
    auto r = resolve_metrics(spec, ListKind::Functions, avail_);
    if (auto* e = std::get_if<SpecError>(&r)) return failure(*e);
    auto& res = std::get<Resolved<MetricList>>(r);
    add_warnings(o, res.warnings);
    fn_ = std::move(res.value);
  }
  // A new function list resets the sort to the default one for that list.
  sort_ = resolve_default_sort(dsort_, fn_, avail_);
  follow_functions();
  o.lines.push_back(fn_.confirmation());
  return o;
}

Outcome MetricState::set_list(std::string_view spec, ListKind kind, MetricList& target) {
  Outcome o;
  if (is_default(spec)) {
    follow_functions();
  } else {
    auto r = resolve_metrics(spec, kind, avail_);
    if (auto* e = std::get_if<SpecError>(&r)) return failure(*e);
    auto& res = std::get<Resolved<MetricList>>(r);
    add_warnings(o, res.warnings);
    target = std::move(res.value);
  }
  o.lines.push_back(target.confirmation());
  return o;
}

Outcome MetricState::set_cmetrics(std::string_view spec) { return set_list(spec, ListKind::CallersCallees, cc_); }
Outcome MetricState::set_data_metrics(std::string_view spec) { return set_list(spec, ListKind::Data, data_); }

Outcome MetricState::set_sort_key(std::string_view spec, ListKind kind, const MetricList& list, SortKey& target) {
  Outcome o;
  auto r = resolve_sort(spec, kind, list, avail_);
  if (auto* e = std::get_if<SpecError>(&r)) return failure(*e);
  auto& res = std::get<Resolved<SortKey>>(r);
  add_warnings(o, res.warnings);
  target = res.value;
  o.lines.push_back("current sort: " + target.to_string());
  return o;
}

Outcome MetricState::set_sort(std::string_view spec) {
  if (is_default(spec)) {
    sort_ = resolve_default_sort(dsort_, fn_, avail_);
    follow_functions();
    return Outcome{true, {"current sort: " + sort_.to_string()}};
  }
  Outcome o = set_sort_key(spec, ListKind::Functions, fn_, sort_);
  if (o.ok) {
    csort_ = derive_callers_callees_sort(sort_, avail_);
    dsort_key_ = derive_data_sort(sort_, data_, avail_);
  }
  return o;
}

Outcome MetricState::set_csort(std::string_view spec) {
  return set_sort_key(spec, ListKind::CallersCallees, cc_, csort_);
}

Outcome MetricState::set_data_sort(std::string_view spec) {
  return set_sort_key(spec, ListKind::Data, data_, dsort_key_);
}

}  // namespace erkit::metricspec
