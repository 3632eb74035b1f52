#include "views/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace erkit::views {

std::string format_value(uint32_t metric, int64_t v) {
  const auto& d = model::metric_def(metric);
  if (d.unit == model::MetricUnit::Nanoseconds) {
    if (v == 0) return "0.";
    return fmt::format("{:.3f}", double(v) / 1e9);
  }
  return fmt::format("{}", v);
}

std::string format_percent(int64_t v, int64_t total) {
  if (v == 0 || total == 0) return "0.";
  return fmt::format("{:.2f}", 100.0 * double(v) / double(total));
}

double percent_of(int64_t v, int64_t total) { return total == 0 ? 0.0 : 100.0 * double(v) / double(total); }

const char* unit_name(uint32_t metric) {
  switch (model::metric_def(metric).unit) {
    case model::MetricUnit::Nanoseconds: return "ns";
    case model::MetricUnit::Bytes: return "bytes";
    case model::MetricUnit::Count: return "count";
  }
  return "count";
}

json::Value column_json(const ViewColumn& c) {
  const auto& d = model::metric_def(c.metric);
  const char* fl = c.flavor == 'e' ? "exclusive" : c.flavor == 'i' ? "inclusive" : c.flavor == 'a' ? "attributed"
                                                                                                    : "data";
  return json::Value::object()
      .set("flavor", fl)
      .set("metric", d.name)
      .set("title", d.display)
      .set("unit", c.percent ? "percent" : unit_name(c.metric));
}

json::Value TextTable::to_json() const {
  json::Value cols = json::Value::array(), rows = json::Value::array();
  for (const auto& c : cols_) cols.push(column_json(c));
  for (const auto& r : rows_) {
    json::Value row = json::Value::object();
    if (r.id >= 0) row.set("id", r.id);
    row.set("name", r.name);
    if (r.marker != " " && !r.marker.empty()) row.set("selected", true);
    json::Value vals = json::Value::array();
    for (size_t i = 0; i < cols_.size(); ++i) {
      const auto& c = cols_[i];
      if (c.percent) vals.push(percent_of(r.raw[i], base(i)));
      else vals.push(r.raw[i]);
    }
    row.set("values", std::move(vals));
    rows.push(std::move(row));
  }
  return json::Value::object().set("columns", std::move(cols)).set("rows", std::move(rows));
}

std::string TextTable::flavor_word(char f) {
  switch (f) {
    case 'e': return "Excl.";
    case 'i': return "Incl.";
    case 'a': return "Attr.";
    default: return "";
  }
}

TextTable::TextTable(std::vector<ViewColumn> cols) : cols_(std::move(cols)), base_(cols_.size(), -1) {}

void TextTable::set_percent_base(size_t i, int64_t base) {
  if (i < base_.size()) base_[i] = base;
}

int64_t TextTable::base(size_t i) const {
  if (base_[i] >= 0) return base_[i];
  return cols_[i].metric < totals_.size() ? totals_[cols_[i].metric] : 0;
}

void TextTable::add_row(const std::vector<int64_t>& values, const std::string& name, const std::string& marker) {
  Row r;
  for (size_t i = 0; i < cols_.size(); ++i) {
    const auto& c = cols_[i];
    int64_t v = i < values.size() ? values[i] : 0;
    r.raw.push_back(v);
    r.cells.push_back(c.percent ? format_percent(v, base(i)) : format_value(c.metric, v));
  }
  r.name = name;
  r.marker = marker;
  rows_.push_back(std::move(r));
}

std::string TextTable::render() const {
  std::vector<std::array<std::string, 3>> heads;
  std::vector<size_t> width;
  for (size_t i = 0; i < cols_.size(); ++i) {
    const auto& c = cols_[i];
    const auto& d = model::metric_def(c.metric);
    std::string unit = c.percent ? "%" : d.unit == model::MetricUnit::Nanoseconds ? "sec." : "";
    heads.push_back({flavor_word(c.flavor), d.short_display, unit});
    size_t w = 0;
    for (const auto& h : heads.back()) w = std::max(w, h.size());
    for (const auto& r : rows_) w = std::max(w, r.cells[i].size());
    width.push_back(w);
  }
  std::string out;
  for (int line = 0; line < 3; ++line) {
    std::string l;
    for (size_t i = 0; i < cols_.size(); ++i) {
      const std::string& h = heads[i][line];
      // Header words are left-aligned in the column, as in the manual's examples.
      l += fmt::format("{:<{}}  ", h, width[i]);
    }
    if (line == 0) l += " Name";
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
  for (const auto& r : rows_) {
    std::string l;
    for (size_t i = 0; i < cols_.size(); ++i) l += fmt::format("{:>{}}  ", r.cells[i], width[i]);
    l += r.marker + r.name;
    out += l + "\n";
  }
  return out;
}

}  // namespace erkit::views
