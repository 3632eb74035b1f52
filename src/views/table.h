// Text tables in the manual's layout: metric columns with a three-line header (flavour,
// metric, unit) right-aligned, then the name column left-aligned.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/metric_defs.h"

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

class TextTable {
 public:
  explicit TextTable(std::vector<ViewColumn> cols);
  // values[i] is the raw value for column i (percent columns are computed from totals).
  void add_row(const std::vector<int64_t>& values, const std::string& name, const std::string& marker = " ");
  void set_totals(const std::vector<int64_t>& totals) { totals_ = totals; }
  std::string render() const;
  static std::string flavor_word(char f);

 private:
  std::vector<ViewColumn> cols_;
  std::vector<int64_t> totals_;
  struct Row {
    std::vector<std::string> cells;
    std::string name, marker;
  };
  std::vector<Row> rows_;
};

}  // namespace erkit::views
