#include "views/trace_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace erkit::views {
namespace {

// Range i covers [limit(i-1), limit(i)): 1 KiB, then eight times larger each.
uint64_t range_limit(size_t i) { return uint64_t(1024) << (3 * i); }
constexpr size_t kRanges = 8;  // the last range is open-ended

std::string size_words(uint64_t b) {
  if (b >= (uint64_t(1) << 30)) return fmt::format("{} GiB", b >> 30);
  if (b >= (uint64_t(1) << 20)) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

}  // namespace

void SizeHistogram::add(uint64_t size, uint64_t n, int64_t bytes_of_n) {
  if (n == 0) return;
  count += n;
  bytes += bytes_of_n < 0 ? size * n : uint64_t(bytes_of_n);
  max = std::max(max, size);
  min_seen = std::min(min_seen, size);
  size_t i = 0;
  while (i + 1 < kRanges && size >= range_limit(i)) ++i;
  if (buckets.size() <= i) buckets.resize(i + 1, 0);
  buckets[i] += n;
}

std::string SizeHistogram::render(const char* range_title, const char* count_title) const {
  std::string out = fmt::format("{:<34}{}\n{}\n", range_title, count_title, std::string(55, '-'));
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!buckets[i]) continue;
    std::string lo = size_words(i ? range_limit(i - 1) : 0);
    std::string range = i + 1 < kRanges ? fmt::format("{} - {}", lo, size_words(range_limit(i))) : lo + " and more";
    out += fmt::format("  {:<32}{}\n", range, buckets[i]);
  }
  out += "\n";
  return out;
}

json::Value SizeHistogram::to_json() const {
  json::Value ranges = json::Value::array();
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!buckets[i]) continue;
    const uint64_t lo = i ? range_limit(i - 1) : 0;
    std::string range = i + 1 < kRanges ? fmt::format("{} - {}", size_words(lo), size_words(range_limit(i)))
                                        : size_words(lo) + " and more";
    ranges.push(json::Value::object()
                    .set("range", range)
                    .set("low", lo)
                    .set("high", i + 1 < kRanges ? json::Value(range_limit(i)) : json::Value())
                    .set("count", buckets[i]));
  }
  return json::Value::object()
      .set("ranges", std::move(ranges))
      .set("count", count)
      .set("bytes", bytes)
      .set("smallest", min())
      .set("largest", max);
}

json::Value stack_json(const std::vector<StackFrame>& frames) {
  json::Value out = json::Value::array();
  for (const auto& f : frames) {
    json::Value v = json::Value::object().set("function", f.function);
    if (f.has_offset) v.set("offset", f.offset);
    out.push(v.set("text", f.text()));
  }
  return out;
}

json::Value number_or_null(const std::string& s) {
  if (s.empty()) return {};
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end) return {};
  return json::Value(v);
}

std::string PlainTable::render() const {
  size_t ncols = 0;
  for (const auto& h : header_) ncols = std::max(ncols, h.size());
  for (const auto& r : rows_) ncols = std::max(ncols, r.size());
  std::vector<size_t> width(ncols, 0);
  auto measure = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i + 1 < cells.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  };
  for (const auto& h : header_) measure(h);
  for (const auto& r : rows_) measure(r);
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i + 1 < cells.size())
        s += fmt::format("{:>{}}  ", cells[i], width[i]);
      else
        s += cells[i];
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out;
  for (const auto& h : header_) out += line(h);
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string seconds6(uint64_t ns) { return fmt::format("{:.6f}", double(ns) / 1e9); }

std::string seconds3(uint64_t ns) { return ns == 0 ? "0." : fmt::format("{:.3f}", double(ns) / 1e9); }

}  // namespace erkit::views
