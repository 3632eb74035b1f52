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

std::string TextTable::flavor_word(char f) {
  switch (f) {
    case 'e': return "Excl.";
    case 'i': return "Incl.";
    case 'a': return "Attr.";
    default: return "";
  }
}

TextTable::TextTable(std::vector<ViewColumn> cols) : cols_(std::move(cols)) {}

void TextTable::add_row(const std::vector<int64_t>& values, const std::string& name, const std::string& marker) {
  Row r;
  for (size_t i = 0; i < cols_.size(); ++i) {
    const auto& c = cols_[i];
    int64_t v = i < values.size() ? values[i] : 0;
    r.cells.push_back(c.percent ? format_percent(v, c.metric < totals_.size() ? totals_[c.metric] : 0)
                                : format_value(c.metric, v));
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
