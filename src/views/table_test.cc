#include "views/table.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

namespace erkit::views {
namespace {

// The integer fast paths of format_value/format_percent print what fmt prints for the double.
TEST(TextTable, FormattingMatchesFmtOnTheDouble) {
  std::mt19937_64 rng(42);
  auto reference_ns = [](int64_t v) { return v == 0 ? std::string("0.") : fmt::format("{:.3f}", double(v) / 1e9); };
  auto reference_pct = [](int64_t v, int64_t t) {
    return v == 0 || t == 0 ? std::string("0.") : fmt::format("{:.2f}", 100.0 * double(v) / double(t));
  };
  for (int i = 0; i < 200000; ++i) {
    const int scale = int(rng() % 16);
    int64_t v = int64_t(rng() % 1'000'000'000'000'000) >> (scale * 3);
    if (i % 7 == 0) v = v / 1'000'000 * 1'000'000 + 500'000;  // exact half milliseconds
    if (i % 11 == 0) v = -v;
    EXPECT_EQ(format_value(model::kUser, v), reference_ns(v)) << v;
    const int64_t total = int64_t(rng() % 1'000'000'000) + 1;
    int64_t part = int64_t(rng() % uint64_t(total + 1));
    if (i % 5 == 0) part = total / 8 * int64_t(rng() % 9);  // eighths: exact ties at 2 decimals
    EXPECT_EQ(format_percent(part, total), reference_pct(part, total)) << part << "/" << total;
  }
  EXPECT_EQ(format_value(model::kUser, 1'234'567'890), "1.235");
  EXPECT_EQ(format_percent(1, 3), "33.33");
  EXPECT_EQ(format_percent(3, 3), "100.00");
}

// Column widths come from the widest cell, rows keep only raw values.
TEST(TextTable, WidthsFromSmallestAndLargestValues) {
  TextTable t({{'e', model::kUser, false}, {'e', model::kUser, true}});
  t.set_totals(std::vector<int64_t>(model::kMetricCount, 10'000'000'000'000));
  t.add_row({0, 0}, "a");
  t.add_row({10'000'000'000'000, 10'000'000'000'000}, "b", "*");
  t.add_row({1'000'000, 1'000'000}, "c");
  EXPECT_EQ(t.render(),
            "Excl.      Excl.      Name\n"
            "User CPU   User CPU\n"
            "sec.       %\n"
            "       0.        0.   a\n"
            "10000.000    100.00  *b\n"
            "    0.001      0.00   c\n");
}

}  // namespace
}  // namespace erkit::views
