#include "views/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace erkit::views {

namespace {

// n / 10^digits in fixed notation with `digits` decimals ("12.345" for n=12345, digits=3).
std::string fixed_point(uint64_t n, int digits) {
  char buf[32];
  char* e = buf + sizeof buf;
  char* b = e;
  for (int i = 0; i < digits; ++i, n /= 10) *--b = char('0' + n % 10);
  *--b = '.';
  do {
    *--b = char('0' + n % 10);
    n /= 10;
  } while (n);
  return std::string(b, e);
}

}  // namespace

// Both formatters take an exact integer path when rounding cannot be in doubt (values far
// from a rounding tie, where the double computation's error cannot cross it), else fmt on
// the double as before: the text is the same either way, the integer path is much faster.
std::string format_value(uint32_t metric, int64_t v) {
  const auto& d = model::metric_def(metric);
  if (d.unit == model::MetricUnit::Nanoseconds) {
    if (v == 0) return "0.";
    // double(v)/1e9 is off by under 1e-10 s below 1e15 ns, and a rounding tie is 1 ns away
    // unless the sub-millisecond remainder is exactly half.
    if (v > 0 && v < 1'000'000'000'000'000 && v % 1'000'000 != 500'000)
      return fixed_point(uint64_t(v / 1'000'000 + (v % 1'000'000 > 500'000 ? 1 : 0)), 3);
    return fmt::format("{:.3f}", double(v) / 1e9);
  }
  return fmt::format("{}", v);
}

std::string format_percent(int64_t v, int64_t total) {
  if (v == 0 || total == 0) return "0.";
  const double x = 100.0 * double(v) / double(total);
  if (x > 0 && x < 1e6) {  // y below 1e8: its error is under 1e-7
    const double y = x * 100;
    const double fl = std::floor(y);
    if (std::fabs(y - fl - 0.5) > 1e-6) return fixed_point(uint64_t(fl) + (y - fl > 0.5 ? 1 : 0), 2);
  }
  return fmt::format("{:.2f}", x);
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
  const size_t nc = cols_.size();
  for (size_t r = 0; r < names_.size(); ++r) {
    json::Value row = json::Value::object();
    if (ids_[r] >= 0) row.set("id", ids_[r]);
    row.set("name", names_[r]);
    if (markers_[r] != " " && !markers_[r].empty()) row.set("selected", true);
    json::Value vals = json::Value::array();
    for (size_t i = 0; i < nc; ++i) {
      const auto& c = cols_[i];
      int64_t v = raw_[r * nc + i];
      if (c.percent) vals.push(percent_of(v, base(i)));
      else vals.push(v);
    }
    row.set("values", std::move(vals));
    rows.push(std::move(row));
  }
  return json::Value::object().set("columns", std::move(cols)).set("rows", std::move(rows));
}

void TextTable::append_row_json(std::string& out, size_t r) const {
  const size_t nc = cols_.size();
  out += '{';
  if (ids_[r] >= 0) {
    out += "\"id\":";
    json::Value(ids_[r]).append_to(out);
    out += ',';
  }
  out += "\"name\":";
  out += json::escape(names_[r]);
  if (markers_[r] != " " && !markers_[r].empty()) out += ",\"selected\":true";
  out += ",\"values\":[";
  for (size_t i = 0; i < nc; ++i) {
    if (i) out += ',';
    int64_t v = raw_[r * nc + i];
    if (cols_[i].percent) json::Value(percent_of(v, base(i))).append_to(out);
    else json::Value(v).append_to(out);
  }
  out += "]}";
}

std::string TextTable::flavor_word(char f) {
  switch (f) {
    case 'e': return "Excl.";
    case 'i': return "Incl.";
    case 'a': return "Attr.";
    default: return "";
  }
}

TextTable::TextTable(std::vector<ViewColumn> cols)
    : cols_(std::move(cols)), base_(cols_.size(), -1), min_(cols_.size()), max_(cols_.size()) {}

void TextTable::set_percent_base(size_t i, int64_t base) {
  if (i < base_.size()) base_[i] = base;
}

int64_t TextTable::base(size_t i) const {
  if (base_[i] >= 0) return base_[i];
  return cols_[i].metric < totals_.size() ? totals_[cols_[i].metric] : 0;
}

std::string TextTable::cell(size_t i, int64_t v) const {
  return cols_[i].percent ? format_percent(v, base(i)) : format_value(cols_[i].metric, v);
}

void TextTable::observe(const int64_t* values) {
  for (size_t i = 0; i < cols_.size(); ++i) {
    min_[i] = observed_ ? std::min(min_[i], values[i]) : values[i];
    max_[i] = observed_ ? std::max(max_[i], values[i]) : values[i];
  }
  ++observed_;
  width_.clear();
}

void TextTable::add_row(const std::vector<int64_t>& values, const std::string& name, const std::string& marker) {
  const size_t first = raw_.size();
  for (size_t i = 0; i < cols_.size(); ++i) raw_.push_back(i < values.size() ? values[i] : 0);
  observe(raw_.data() + first);
  names_.push_back(name);
  markers_.push_back(marker);
  ids_.push_back(-1);
}

void TextTable::compute_widths() const {
  if (!width_.empty() || cols_.empty()) return;
  width_.assign(cols_.size(), 0);
  for (size_t i = 0; i < cols_.size(); ++i) {
    const auto& c = cols_[i];
    const auto& d = model::metric_def(c.metric);
    std::string unit = c.percent ? "%" : d.unit == model::MetricUnit::Nanoseconds ? "sec." : "";
    size_t w = std::max({flavor_word(c.flavor).size(), d.short_display.size(), unit.size()});
    if (observed_) w = std::max({w, cell(i, min_[i]).size(), cell(i, max_[i]).size()});
    width_[i] = w;
  }
  last_cell_.assign(cols_.size(), std::string());
  last_value_.assign(cols_.size(), 0);
}

void TextTable::append_header(std::string& out) const {
  compute_widths();
  for (int line = 0; line < 3; ++line) {
    std::string l;
    for (size_t i = 0; i < cols_.size(); ++i) {
      const auto& c = cols_[i];
      const auto& d = model::metric_def(c.metric);
      std::string h = line == 0   ? flavor_word(c.flavor)
                      : line == 1 ? d.short_display
                      : c.percent ? "%"
                      : d.unit == model::MetricUnit::Nanoseconds ? "sec."
                                                                  : "";
      // Header words are left-aligned in the column, as in the manual's examples.
      l += fmt::format("{:<{}}  ", h, width_[i]);
    }
    if (line == 0) l += " Name";
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
}

void TextTable::append_row(std::string& out, const int64_t* values, std::string_view marker, std::string_view name,
                           size_t indent) const {
  compute_widths();
  for (size_t i = 0; i < cols_.size(); ++i) {
    if (last_cell_[i].empty() || last_value_[i] != values[i]) {
      last_value_[i] = values[i];
      std::string c = cell(i, values[i]);
      last_cell_[i].assign(width_[i] > c.size() ? width_[i] - c.size() : 0, ' ');
      last_cell_[i] += c;
      last_cell_[i] += "  ";
    }
    out += last_cell_[i];
  }
  out += marker;
  out.append(indent, ' ');
  out += name;
  out += '\n';
}

void TextTable::render_to(std::string& out) const {
  append_header(out);
  const size_t nc = cols_.size();
  for (size_t r = 0; r < names_.size(); ++r) append_row(out, raw_.data() + r * nc, markers_[r], names_[r]);
}

std::string TextTable::render() const {
  std::string out;
  render_to(out);
  return out;
}

}  // namespace erkit::views
