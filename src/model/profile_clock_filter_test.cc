// Property test (issue 24): with random filters and selections, the clock scan's per-stack sums
// of the kept samples (model/profile_clock_filter.cc) give the same aggregates, in the same
// order, the same function metrics and the same caller/callee edges as the sample-by-sample
// pass (Profile::set_clock_scan(false)).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "folded_experiment.h"
#include "model/filter/filter.h"
#include "model/profile.h"
#include "model/query.h"
#include "model/selection/selection.h"

namespace erkit::model {
namespace {

class Names : public filter::FunctionNames {
 public:
  explicit Names(const FunctionTable& ft) : ft_(ft) {}
  size_t count() const override { return ft_.size(); }
  std::string_view name(uint32_t id) const override { return ft_.at(id).name; }

 private:
  const FunctionTable& ft_;
};

class ProfileClockFilterTest : public ::testing::Test {
 protected:
  // A folded experiment of random stacks, its samples spread over 5 threads, 4 CPUs (and
  // none), 3,000 time steps and 6 overview samples, with main-thread samples among them.
  void SetUp() override {
    std::mt19937 rng(11);
    const char* names[] = {"main", "a", "b", "c", "d", "e"};
    std::vector<std::string> folded;
    for (int i = 0; i < 40; ++i) {
      std::string s = "main";
      for (int d = int(rng() % 5); d >= 0; --d) s += std::string(";") + names[1 + rng() % 5];
      folded.push_back(s + " 1");
    }
    dir_ = testing::temp_path("clock_filter");
    ASSERT_EQ(testing::write_folded_experiment(dir_, folded), "");
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    reader::Experiment e = std::move(*r.experiment);
    ASSERT_GE(e.clock.size(), 40u);
    std::vector<reader::ClockSample> base = e.clock;
    e.clock.clear();
    for (uint64_t i = 0; i < 3000; ++i) {
      reader::ClockSample s = base[rng() % base.size()];
      s.tstamp_ns = base.front().tstamp_ns + i * 1000;
      s.tid = uint32_t(1 + rng() % 5);
      s.cpu = int32_t(rng() % 5) - 1;
      s.flags = (s.tid == 1) ? format::kClockFlagMainThread : 0;
      for (auto& ns : s.ns) ns = rng() % 3 ? 0 : rng() % 10000;
      e.clock.push_back(s);
    }
    for (uint64_t k = 1; k <= 6; ++k) {
      reader::OverviewSample o{};
      o.rec.tstamp_ns = base.front().tstamp_ns + k * 500 * 1000;
      e.samples.push_back(o);
    }
    t0_ = base.front().tstamp_ns;
    profile_.add_experiment(std::move(e));
  }
  void TearDown() override {
    profile_.set_event_filter(nullptr, false);
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }

  struct Snapshot {
    std::vector<std::pair<const ResolvedStack*, std::vector<int64_t>>> aggs;
    FunctionMetrics fm;
    std::vector<std::vector<std::pair<FuncId, int64_t>>> edges;  // callers then callees, per function
    bool operator==(const Snapshot& o) const {
      return aggs == o.aggs && fm.excl == o.fm.excl && fm.incl == o.fm.incl && edges == o.edges;
    }
  };
  Snapshot snapshot() {
    Snapshot s;
    for (const auto& a : profile_.aggregates())
      s.aggs.emplace_back(a.stack, std::vector<int64_t>(a.values, a.values + kMetricCount));
    s.fm = profile_.function_metrics();
    for (FuncId f = 0; f < profile_.functions().size(); ++f) {
      CallersCallees cc = profile_.callers_callees(f);
      for (const auto* side : {&cc.callers, &cc.callees}) {
        s.edges.emplace_back();
        for (const Edge& e : *side) s.edges.back().emplace_back(e.other, e.values[kTotal]);
      }
    }
    return s;
  }

  std::string dir_;
  uint64_t t0_ = 0;
  Profile profile_;
};

TEST_F(ProfileClockFilterTest, RandomFiltersKeepTheSampleBySampleResult) {
  std::mt19937 rng(5);
  auto range = [&](uint32_t lo, uint32_t hi) {  // "a-b" within [lo, hi]
    uint32_t a = lo + rng() % (hi - lo + 1), b = lo + rng() % (hi - lo + 1);
    return std::to_string(std::min(a, b)) + "-" + std::to_string(std::max(a, b));
  };
  const char* fnames[] = {"a", "b", "c", "main"};
  size_t nonempty = 0, partial = 0;
  const int64_t all = profile_.totals()[kTotal];
  for (int round = 0; round < 40; ++round) {
    selection::SelectionState sel(1);
    int kind = round % 8;
    if (kind == 0 || kind == 5) {
      ASSERT_FALSE(sel.apply(selection::Target::Threads, range(1, 5)));
    }
    if (kind == 1 || kind == 5) {
      ASSERT_FALSE(sel.apply(selection::Target::Samples, range(1, 7)));
    }
    if (kind == 2) {
      ASSERT_FALSE(sel.apply(selection::Target::Cpus, range(0, 3)));
    }
    if (kind == 3) {
      ASSERT_FALSE(sel.apply(selection::Target::Lwps, range(1, 5)));
    }
    std::string text;
    if (kind == 4 || kind == 6) {
      uint64_t a = t0_ + (rng() % 3000) * 1000, b = t0_ + (rng() % 3000) * 1000;
      text = fmt::format("TSTAMP >= {} && TSTAMP < {}", std::min(a, b), std::max(a, b));
    }
    if (kind == 6) text += fmt::format(" && (FNAME(\"{}\") SOME IN STACK)", fnames[rng() % 4]);
    if (kind == 7) text = fmt::format("THRID IN ({}, {}) || CPUID == {}", 1 + rng() % 5, 1 + rng() % 5, rng() % 4);
    std::optional<filter::Expr> f;
    if (!text.empty()) {
      auto parsed = filter::Expr::parse(text);
      ASSERT_TRUE(std::holds_alternative<filter::Expr>(parsed)) << text;
      f = std::get<filter::Expr>(std::move(parsed));
      std::string err;
      ASSERT_TRUE(f->bind(Names(profile_.functions()), &err)) << err;
    }
    set_event_selection(profile_, &sel, f ? &*f : nullptr);
    profile_.set_clock_scan(true);
    Snapshot fast = snapshot();
    profile_.set_clock_scan(false);
    Snapshot slow = snapshot();
    EXPECT_TRUE(fast == slow) << "round " << round << ": " << text;
    nonempty += !fast.aggs.empty();
    partial += !fast.aggs.empty() && fast.fm.incl[profile_.functions().total()][kTotal] < all;
    profile_.set_event_filter(nullptr, false);
  }
  // The filters selected something, and not always everything.
  EXPECT_GT(nonempty, 20u);
  EXPECT_GT(partial, 5u);
}

}  // namespace
}  // namespace erkit::model
