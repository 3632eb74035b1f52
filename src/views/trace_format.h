// Pieces shared by the trace reports (trace_views.cc, io_views.cc, sync_views.cc): grouping of
// stack aggregates by their printed frames, size histograms, and a plain right-aligned table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"
#include "views/json.h"
#include "views/trace_views.h"

namespace erkit::views {

// Stacks printing the same frames (over every experiment) summed: values[i] is metrics[i].
struct StackGroup {
  std::vector<StackFrame> frames;  // leaf first
  std::vector<int64_t> values;
};
// [{"function","offset"?,"text"}...], leaf first.
json::Value stack_json(const std::vector<StackFrame>& frames);
// Aggregates with a non-zero value of any of `metrics`, grouped by identical frame lines.
std::vector<StackGroup> group_by_stack(const model::Profile& p, const NameOptions& names,
                                       const std::vector<uint32_t>& metrics);

// Counts of sizes in power-of-two ranges ("0 B - 1 KiB", "1 KiB - 8 KiB", ...).
struct SizeHistogram {
  uint64_t count = 0, bytes = 0, max = 0, min_seen = UINT64_MAX;
  std::vector<uint64_t> buckets;  // by range index
  // n blocks of `size` bytes; `bytes_of_n` their bytes when not n * size (an estimate).
  void add(uint64_t size, uint64_t n = 1, int64_t bytes_of_n = -1);
  uint64_t min() const { return count ? min_seen : 0; }
  // A header line, a rule, then one line per non-empty range.
  std::string render(const char* range_title, const char* count_title) const;
  // {"ranges":[{"range":"1 KiB - 8 KiB","low":1024,"high":8192|null,"count"}],"count","bytes",
  // "smallest","largest"}: the non-empty ranges, high null for the open-ended last one.
  json::Value to_json() const;
};

// Columns right-aligned to their widest cell, except the last (a name), left-aligned.
class PlainTable {
 public:
  explicit PlainTable(std::vector<std::vector<std::string>> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  std::string render() const;

 private:
  std::vector<std::vector<std::string>> header_;  // header lines, each with one cell per column
  std::vector<std::vector<std::string>> rows_;
};

// A number from a log field ("?" and other text: null).
json::Value number_or_null(const std::string& s);

// Seconds with 6 decimals, as the statistics reports print times.
std::string seconds6(uint64_t ns);
// Seconds with 3 decimals ("0." for zero), as metric columns do.
std::string seconds3(uint64_t ns);

}  // namespace erkit::views
