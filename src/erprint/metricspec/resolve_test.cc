#include <gtest/gtest.h>

#include "test_metrics.h"

namespace erkit::metricspec {
namespace {
using testing::clock;
using testing::make;

std::string expand(std::string_view spec, Available a, ListKind k = ListKind::Functions) {
  auto r = resolve_metrics(spec, k, a);
  if (auto* e = std::get_if<SpecError>(&r)) return "ERROR@" + std::to_string(e->offset) + ": " + e->message;
  return std::get<Resolved<MetricList>>(r).value.to_string();
}

TEST(Resolve, ManualExpansionExamples) {
  const auto a = clock();
  EXPECT_EQ(expand("ie.user", a), "i.user:e.user:name");
  EXPECT_EQ(expand("ie.%user", a), "i.user:i%user:e.user:e%user:name");
  EXPECT_EQ(expand("i%.user", a), "i.user:i%user:name");
  EXPECT_EQ(expand("i.%user", a), "i.user:i%user:name");
  EXPECT_EQ(expand("e.user:e%user", a), "e.user:e%user:name");
  EXPECT_EQ(expand("i.user:i%user:e.user:e%user", a), "i.user:i%user:e.user:e%user:name");  // §14.2
  EXPECT_EQ(expand("ei.%wall", a), "e.wall:e%wall:i.wall:i%wall:name");
}

TEST(Resolve, SameMetricDifferentVisibilityShownTogetherAtFirstPosition) {
  const auto a = clock();
  EXPECT_EQ(expand("i%user:e.user:i.user", a), "i.user:i%user:e.user:name");
  EXPECT_EQ(expand("e.user:e.user:e.user", a), "e.user:name");  // duplicates ignored
  EXPECT_EQ(expand("e.user:e!user", a), "e.user:name");
  EXPECT_EQ(expand("e!user:i.user", a), "e!user:i.user:name");
  EXPECT_EQ(expand("e!user:e%user", a), "e%user:name");
}

TEST(Resolve, VisibilityNormalisedByKind) {
  const auto a = make({"user", "sync", "syncn", "cycles", "insts", "leak"});
  EXPECT_EQ(expand("e+user", a), "e.user:name");      // '+' on a time is '.'
  EXPECT_EQ(expand("e.syncn", a), "e+syncn:name");    // '.' on a count is '+'
  EXPECT_EQ(expand("e.+%cycles", a), "e.cycles:e+cycles:e%cycles:name");  // cycle counter: both
  EXPECT_EQ(expand("e.insts", a), "e+insts:name");
  EXPECT_EQ(expand("i+leak", a), "i+leak:name");
}

TEST(Resolve, StaticMetrics) {
  const auto a = clock();
  EXPECT_EQ(expand("name:e.user", a), "name:e.user");  // explicit position kept, not re-appended
  EXPECT_EQ(expand("e.user:size:address", a), "e.user:size:address:name");
  EXPECT_EQ(expand("e.user:!name", a), "e.user:!name");
  EXPECT_EQ(expand("size", a), "size:name");
}

TEST(Resolve, FlavorsPerList) {
  auto a = make({"user", "cycles"});
  EXPECT_EQ(expand("a.user", a).rfind("ERROR@0: attributed", 0), 0u);
  EXPECT_EQ(expand("e.user:d.user", a).rfind("ERROR@7: data-space", 0), 0u);
  EXPECT_EQ(expand("i.user:i%user:a.user:a%user", a, ListKind::CallersCallees),
            "i.user:i%user:a.user:a%user:name");  // §14.2 cmetrics
  EXPECT_EQ(expand("aei.%wall", make({"wall"}), ListKind::CallersCallees),
            "a.wall:a%wall:e.wall:e%wall:i.wall:i%wall:name");
  a[1].flavors |= kDataSpace;
  EXPECT_EQ(expand("d.%cycles:name", a, ListKind::Data), "d.cycles:d%cycles:name");
  EXPECT_EQ(expand("e.cycles", a, ListKind::Data).rfind("ERROR@0: data objects", 0), 0u);
  // user has no data-space flavor: skipped with a warning, and nothing else is left.
  EXPECT_EQ(expand("d.user", a, ListKind::Data), "ERROR@0: no valid metrics specified");
}

TEST(Resolve, UnknownAndUnavailable) {
  const auto a = clock();
  EXPECT_EQ(expand("e.bogus", a), "ERROR@2: unknown metric 'bogus'");
  EXPECT_EQ(expand("e.user:i.frob", a), "ERROR@9: unknown metric 'frob'");
  auto r = resolve_metrics("e.user:e.sync", ListKind::Functions, a);
  auto& res = std::get<Resolved<MetricList>>(r);
  EXPECT_EQ(res.value.to_string(), "e.user:name");
  ASSERT_EQ(res.warnings.size(), 1u);
  EXPECT_EQ(res.warnings[0], "metric 'sync' is not recorded in the loaded experiments; ignored");
  EXPECT_EQ(expand("e.sync", a), "ERROR@0: no valid metrics specified");
  EXPECT_EQ(expand("e.hwc", a).rfind("ERROR@0: 'hwc' may only be used", 0), 0u);
  EXPECT_EQ(expand("e.any", a).rfind("ERROR@0: 'any' may only be used", 0), 0u);
}

TEST(Resolve, AliasesAndRuntimeCounters) {
  const auto a = make({"user", "lock", "L1-dcache-load-misses"});
  EXPECT_EQ(expand("e.unlock", a), "e.lock:name");
  EXPECT_EQ(expand("e+L1-dcache-load-misses", a), "e+L1-dcache-load-misses:name");
}

TEST(Resolve, DefaultListsWithHwcAndAny) {
  const auto a = make({"user", "cycles", "L1-dcache-load-misses"});
  auto r = resolve_default_metrics("e.%hwc:i.user:e.sync", ListKind::Functions, a);
  EXPECT_EQ(r.value.to_string(),
            "e.cycles:e%cycles:e+L1-dcache-load-misses:e%L1-dcache-load-misses:i.user:name");
  EXPECT_EQ(r.warnings.size(), 1u);  // sync
  EXPECT_EQ(resolve_default_metrics("i!any", ListKind::Functions, a).value.to_string(),
            "i!user:i!cycles:i!L1-dcache-load-misses:name");
  // A malformed default never fails: it degrades to the name column.
  EXPECT_EQ(resolve_default_metrics("e.user::", ListKind::Functions, a).value.to_string(), "name");
}

TEST(Sort, Basics) {
  const auto a = make({"user", "wall", "syncn"});
  const MetricList cur = std::get<Resolved<MetricList>>(resolve_metrics("e.user:i%user:e+syncn", ListKind::Functions, a)).value;
  auto key = [&](std::string_view s) -> std::string {
    auto r = resolve_sort(s, ListKind::Functions, cur, a);
    if (auto* e = std::get_if<SpecError>(&r)) return "ERROR@" + std::to_string(e->offset) + ": " + e->message;
    return std::get<Resolved<SortKey>>(r).value.to_string();
  };
  EXPECT_EQ(key("e.user"), "e.user");
  EXPECT_EQ(key("e%user"), "e.user");  // visibility ignored
  EXPECT_EQ(key("e+user"), "e.user");
  EXPECT_EQ(key("-e.user"), "-e.user");
  EXPECT_EQ(key("i%user"), "i.user");
  EXPECT_EQ(key("name"), "name");
  EXPECT_EQ(key("-name"), "-name");
  EXPECT_EQ(key("e.syncn"), "e+syncn");
  EXPECT_EQ(key("e.wall:i.user"), "i.user");  // e.wall not visible: next entry
  EXPECT_EQ(key("e!wall"), "e.wall");         // '!': sort by it although hidden
  EXPECT_EQ(key("e.wall"), "ERROR@0: no visible metric in sort specification; sort unchanged");
  EXPECT_EQ(key("e.sync"), "ERROR@0: no visible metric in sort specification; sort unchanged");
  EXPECT_EQ(key("e.nosuch"), "ERROR@2: unknown metric 'nosuch'");
  EXPECT_EQ(key("a.user").rfind("ERROR@0: attributed", 0), 0u);
  EXPECT_EQ(key("-"), "ERROR@1: empty metric list");
}

TEST(Sort, CallersCalleesNeedsAttributed) {
  const auto a = make({"user"});
  const MetricList cc = std::get<Resolved<MetricList>>(resolve_metrics("a.user:e.user", ListKind::CallersCallees, a)).value;
  auto r = resolve_sort("e.user", ListKind::CallersCallees, cc, a);
  ASSERT_TRUE(std::holds_alternative<SpecError>(r));
  r = resolve_sort("a.user", ListKind::CallersCallees, cc, a);
  EXPECT_EQ(std::get<Resolved<SortKey>>(r).value.to_string(), "a.user");
}

TEST(Derive, CallersCalleesInsertsAttributedBeforeFirstOccurrence) {
  const auto a = make({"user", "wall"});
  const MetricList fn =
      std::get<Resolved<MetricList>>(resolve_metrics("e.user:i%user:e!wall:name", ListKind::Functions, a)).value;
  EXPECT_EQ(derive_callers_callees(fn, a).to_string(), "a.user:a%user:e.user:i%user:a!wall:e!wall:name");
  EXPECT_EQ(derive_callers_callees_sort(SortKey{'e', "user", true}, a).to_string(), "-a.user");
  EXPECT_EQ(derive_callers_callees_sort(SortKey{0, "size", false}, a).to_string(), "size");
}

TEST(Derive, DataFollowsVisibleMetricsWithDataFlavor) {
  auto a = make({"user", "cycles", "insts"});
  a[1].flavors |= kDataSpace;
  a[2].flavors |= kDataSpace;
  const MetricList fn =
      std::get<Resolved<MetricList>>(resolve_metrics("e.user:e.cycles:i%cycles:i!insts:size", ListKind::Functions, a)).value;
  const MetricList data = derive_data(fn, a);
  EXPECT_EQ(data.to_string(), "d.cycles:d%cycles:size:name");
  EXPECT_EQ(derive_data_sort(SortKey{'i', "cycles"}, data, a).to_string(), "d.cycles");
  EXPECT_EQ(derive_data_sort(SortKey{'e', "user"}, data, a).to_string(), "d.cycles");
  EXPECT_EQ(derive_data_sort(SortKey{0, "size"}, data, a).to_string(), "size");
}

}  // namespace
}  // namespace erkit::metricspec
