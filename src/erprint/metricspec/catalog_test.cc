// er_print's metric names are the one catalog's (model/metric_defs.h): every metric the model
// computes is known here under the same display name, aliases resolve the same way on both
// sides, and the manual's display names (seed-spec table 6-3) are the ones shown.
#include "catalog.h"
#include "state.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/metric_defs.h"
#include "model/raw_counter_metrics.h"

namespace erkit::metricspec {
namespace {

TEST(MetricCatalog, EveryModelMetricKnownWithTheSameDisplayName) {
  std::set<std::string> names;
  for (const auto& k : known_metrics()) EXPECT_TRUE(names.insert(std::string(k.name)).second) << k.name;
  uint32_t time_forms = 0, unnamed = 0;
  for (uint32_t m = 0; m < model::kMetricCount; ++m) {
    const auto& d = model::metric_def(m);
    if (d.raw && d.name.empty()) {  // a raw counter's slot no experiment named (issue 19)
      ++unnamed;
      continue;
    }
    if (d.cycles_time) {  // a cycle-type counter's time form: the counter's keyword with '.'
      ++time_forms;
      const uint32_t c = model::cycles_counter_metric(m);
      ASSERT_LT(c, model::kMetricCount) << d.name;
      EXPECT_NE(c, m);
      EXPECT_EQ(model::cycles_time_metric(c), m) << d.name;
      EXPECT_EQ(find_known(d.name)->kind, ValueKind::Cycles) << d.name;
      EXPECT_EQ(d.unit, model::MetricUnit::Nanoseconds) << d.name;
      continue;
    }
    auto k = find_known(d.name);
    ASSERT_TRUE(k) << d.name;
    EXPECT_EQ(k->display_name, d.display) << d.name;
    EXPECT_EQ(k->hwc, d.source == model::MetricSource::Hwc) << d.name;
    EXPECT_EQ(k->kind == ValueKind::Time, d.unit == model::MetricUnit::Nanoseconds) << d.name;
  }
  EXPECT_EQ(time_forms, 4u);  // cycles, festalls, bestalls, refcycles
  EXPECT_EQ(known_metrics().size(), model::kMetricCount - time_forms - unnamed + model::named_only_metrics().size());
}

// A raw counter's metric (issue 19) is known to er_print's lists once an experiment named it,
// '.' in its name included (libpfm4's EVENT:UMASK is written EVENT.UMASK).
TEST(MetricCatalog, RawCountersAreKnownOnceNamed) {
  EXPECT_FALSE(find_known("CATALOG_EV.UMASK_A"));
  const uint32_t m = model::hwc_counter_metric("cattest::CATALOG_EV:UMASK_A");
  ASSERT_LT(m, model::kMetricCount);
  auto k = find_known("CATALOG_EV.UMASK_A");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->display_name, "CATALOG_EV.UMASK_A Events");
  EXPECT_EQ(k->kind, ValueKind::Count);
  EXPECT_TRUE(k->hwc);
  auto a = standard_metric("CATALOG_EV.UMASK_A");
  ASSERT_TRUE(a);
  MetricState st({*a}, "e.hwc:name", "e.hwc");
  EXPECT_EQ(st.functions().to_string(), "e+CATALOG_EV.UMASK_A:name");
}

TEST(MetricCatalog, ManualDisplayNames) {
  EXPECT_EQ(find_known("wall")->display_name, "Wall Clock Time");
  EXPECT_EQ(find_known("total")->display_name, "Total LWP Time");
  EXPECT_EQ(find_known("ompwork")->display_name, "OMP Work");
  EXPECT_EQ(find_known("ompwait")->display_name, "OMP Wait");
  EXPECT_EQ(find_known("iotime")->display_name, "I/O Time");
  EXPECT_EQ(find_known("cycles")->kind, ValueKind::Cycles);
  EXPECT_EQ(find_known("insts")->kind, ValueKind::Count);
}

TEST(MetricCatalog, AliasesResolveAlikeInModelAndErPrint) {
  for (const char* alias : {"unlock", "ioread", "iowrite"}) {
    auto k = find_known(alias);
    ASSERT_TRUE(k) << alias;
    EXPECT_NE(k->name, alias);
    EXPECT_EQ(model::metric_index(alias), model::metric_index(std::string(k->name))) << alias;
    EXPECT_LT(model::metric_index(alias), model::kMetricCount) << alias;
  }
  EXPECT_EQ(model::metric_index("nosuch"), model::kMetricCount);
  EXPECT_FALSE(find_known("nosuch"));
}

TEST(MetricCatalog, NamedOnlyMetricsKnownButNotComputed) {
  ASSERT_FALSE(model::named_only_metrics().empty());
  for (const auto& n : model::named_only_metrics()) {
    EXPECT_TRUE(find_known(n.name)) << n.name;
    EXPECT_EQ(model::metric_index(std::string(n.name)), model::kMetricCount) << n.name;
  }
}

}  // namespace
}  // namespace erkit::metricspec
