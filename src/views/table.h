// Text tables in the manual's layout: metric columns with a three-line header (flavour,
// metric, unit) right-aligned, then the name column left-aligned.
#pragma once
#include <cstdint>
#include <string>
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
  // {"columns":[column_json...],"rows":[{"name","marker"?,"values":[...]}]}. Values are raw
  // integers (ns, bytes, counts), percentages doubles; "id" where set_row_id() gave one.
  json::Value to_json() const;
  void set_row_id(int64_t id) { rows_.back().id = id; }
  static std::string flavor_word(char f);

 private:
  std::vector<ViewColumn> cols_;
  std::vector<int64_t> totals_;
  std::vector<int64_t> base_;  // per column; -1: the metric's total
  int64_t base(size_t i) const;
  struct Row {
    std::vector<std::string> cells;
    std::vector<int64_t> raw;
    std::string name, marker;
    int64_t id = -1;
  };
  std::vector<Row> rows_;
};

}  // namespace erkit::views
