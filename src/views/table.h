// Text tables in the manual's layout: metric columns with a three-line header (flavour,
// metric, unit) right-aligned, then the name column left-aligned.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/metric_defs.h"
#include "views/json.h"

namespace erkit::views {

// One printed column: a metric in one flavour, shown as a value or as a percentage.
struct ViewColumn {
  char flavor;      // 'e' exclusive, 'i' inclusive, 'a' attributed
  uint32_t metric;  // model::MetricIndex
  bool percent;
};

// Formats a metric value as the manual does: seconds with 3 decimals ("0." for zero),
// counts and bytes as integers.
std::string format_value(uint32_t metric, int64_t v);
std::string format_percent(int64_t v, int64_t total);
// Percentage as a number (0 when total is 0), for JSON.
double percent_of(int64_t v, int64_t total);

// JSON description of a column: {"flavor","metric","title","unit"}; unit is "ns", "bytes",
// "count" or "percent".
json::Value column_json(const ViewColumn& c);
// A metric's unit word for JSON.
const char* unit_name(uint32_t metric);
// Rows keep their raw values only; cells are formatted when rendered. Column widths come
// from each column's smallest and largest value: a formatted value's width never shrinks as
// its magnitude grows, so those two cells are the widest.
class TextTable {
 public:
  explicit TextTable(std::vector<ViewColumn> cols);
  // values[i] is the raw value for column i (percent columns are computed from totals).
  void add_row(const std::vector<int64_t>& values, const std::string& name, const std::string& marker = " ");
  void set_totals(const std::vector<int64_t>& totals) { totals_ = totals; }
  // Percentages of column i relative to `base` instead of the metric's total (attributed
  // columns: the centre function's inclusive value). Call before add_row().
  void set_percent_base(size_t i, int64_t base);
  std::string render() const;
  void render_to(std::string& out) const;
  // {"columns":[column_json...],"rows":[{"name","marker"?,"values":[...]}]}. Values are raw
  // integers (ns, bytes, counts), percentages doubles; "id" where set_row_id() gave one.
  json::Value to_json() const;
  void set_row_id(int64_t id) { ids_.back() = id; }
  // Row r as to_json() writes it, appended as compact text.
  void append_row_json(std::string& out, size_t r) const;
  static std::string flavor_word(char f);

  // Streaming use, for tables too large to hold (the call tree): observe() every row's values
  // (one per column) to size the columns, then append the header and each row.
  void observe(const int64_t* values);
  void append_header(std::string& out) const;
  void append_row(std::string& out, const int64_t* values, std::string_view marker, std::string_view name,
                  size_t indent = 0) const;

 private:
  std::string cell(size_t i, int64_t v) const;
  void compute_widths() const;
  std::vector<ViewColumn> cols_;
  std::vector<int64_t> totals_;
  std::vector<int64_t> base_;  // per column; -1: the metric's total
  int64_t base(size_t i) const;
  size_t observed_ = 0;
  std::vector<int64_t> min_, max_;  // per column, over the observed rows
  mutable std::vector<size_t> width_;
  // Per column: the last value formatted and its padded cell (call-tree rows repeat values).
  mutable std::vector<int64_t> last_value_;
  mutable std::vector<std::string> last_cell_;
  std::vector<int64_t> raw_;  // rows x columns
  std::vector<std::string> names_, markers_;
  std::vector<int64_t> ids_;
};

}  // namespace erkit::views
