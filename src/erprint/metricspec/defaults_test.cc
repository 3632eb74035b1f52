// The shipped defaults (spec §16) must resolve sensibly for every mix of data kinds.
#include <gtest/gtest.h>

#include "test_metrics.h"

namespace erkit::metricspec {
namespace {
using testing::make;

constexpr const char* kDmetrics =
    "e.%user:i.%user:i+syncn:i.%sync:e.%hwc:i.%hwc:i+leak:i+bleak:e.%mpitime:i.%mpitime:e.%kcycles:i.%kcycles:name";
constexpr const char* kDsort = "e.user:e.hwc:i.sync:i.leak:e.mpitime:e.kcycles:name";

struct Case {
  std::vector<const char*> metrics;
  const char* list;
  const char* sort;
};

TEST(Defaults, EveryCombinationOfDataKinds) {
  const std::vector<std::pair<const char*, std::vector<const char*>>> kinds = {
      {"clock", {"user", "wall", "total", "system", "wait", "lock", "text", "data", "owait"}},
      {"sync", {"sync", "syncn"}},
      {"hwc", {"cycles", "insts"}},
      {"heap", {"alloc", "balloc", "leak", "bleak"}},
      {"mpi", {"mpitime", "mpisend", "mpibytesent", "mpireceive", "mpibytesrecv", "mpiother"}},
  };
  for (unsigned mask = 0; mask < (1u << kinds.size()); ++mask) {
    std::vector<AvailableMetric> avail;
    for (size_t k = 0; k < kinds.size(); ++k)
      if (mask & (1u << k))
        for (const char* n : kinds[k].second) avail.push_back(*standard_metric(n));
    auto r = resolve_default_metrics(kDmetrics, ListKind::Functions, avail);
    const MetricList& l = r.value;
    ASSERT_FALSE(l.columns.empty());
    EXPECT_EQ(l.columns.back().name, "name");
    // Every dynamic column refers to a recorded metric, and each kind present shows something.
    for (const auto& c : l.columns) {
      if (c.is_static()) continue;
      EXPECT_TRUE(std::any_of(avail.begin(), avail.end(), [&](const auto& m) { return m.name == c.name; }));
      EXPECT_TRUE(c.visible());
    }
    for (size_t k = 0; k < kinds.size(); ++k) {
      if (!(mask & (1u << k))) continue;
      const bool shown = std::any_of(l.columns.begin(), l.columns.end(), [&](const Column& c) {
        return std::find_if(kinds[k].second.begin(), kinds[k].second.end(),
                            [&](const char* n) { return c.name == n; }) != kinds[k].second.end();
      });
      EXPECT_TRUE(shown) << kinds[k].first << " mask " << mask;
    }
    const SortKey s = resolve_default_sort(kDsort, l, avail);
    if (s.flavor) {
      EXPECT_TRUE(l.find(s.flavor, s.name) && l.find(s.flavor, s.name)->visible()) << mask;
    } else {
      EXPECT_EQ(s.name, "name");
    }
    // Derived lists resolve too.
    EXPECT_EQ(derive_callers_callees(l, avail).columns.back().name, "name");
    EXPECT_FALSE(derive_callers_callees_sort(s, avail).name.empty());
  }
}

TEST(Defaults, ManualDefaultsPerKind) {
  // §6.19: clock -> exclusive and inclusive User CPU time; sync -> Sync Wait Count and Time;
  // hwc -> exclusive and inclusive counts; heap -> Leaks and Bytes Leaked.
  const std::vector<Case> cases = {
      {{"user", "wall"}, "e.user:e%user:i.user:i%user:name", "e.user"},
      {{"sync", "syncn"}, "i+syncn:i.sync:i%sync:name", "i.sync"},
      {{"cycles"}, "e.cycles:e%cycles:i.cycles:i%cycles:name", "e.cycles"},
      {{"insts"}, "e+insts:e%insts:i+insts:i%insts:name", "e+insts"},
      {{"alloc", "balloc", "leak", "bleak"}, "i+leak:i+bleak:name", "i+leak"},
      {{"mpitime", "mpisend"}, "e.mpitime:e%mpitime:i.mpitime:i%mpitime:name", "e.mpitime"},
      {{}, "name", "name"},
      {{"user", "cycles"}, "e.user:e%user:i.user:i%user:e.cycles:e%cycles:i.cycles:i%cycles:name", "e.user"},
  };
  for (const auto& c : cases) {
    std::vector<AvailableMetric> avail;
    for (const char* n : c.metrics) avail.push_back(*standard_metric(n));
    const MetricList l = resolve_default_metrics(kDmetrics, ListKind::Functions, avail).value;
    EXPECT_EQ(l.to_string(), c.list);
    EXPECT_EQ(resolve_default_sort(kDsort, l, avail).to_string(), c.sort);
  }
}

TEST(Defaults, DsortBangMatchesHiddenMetrics) {
  const auto a = make({"user", "wall"});
  const MetricList l = resolve_default_metrics("e.user:e!wall", ListKind::Functions, a).value;
  EXPECT_EQ(resolve_default_sort("e!wall:e.user", l, a).to_string(), "e.wall");
  EXPECT_EQ(resolve_default_sort("e.wall:e.user", l, a).to_string(), "e.user");
  EXPECT_EQ(resolve_default_sort("i.sync", l, a).to_string(), "e.user");  // fallback: first visible
  EXPECT_EQ(resolve_default_sort("::", l, a).to_string(), "e.user");
}

}  // namespace
}  // namespace erkit::metricspec
