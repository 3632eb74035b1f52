#include "model/profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>

#include "folded_experiment.h"
#include "model/filter/filter.h"

namespace erkit::model {
namespace {

class ProfileTest : public ::testing::Test {
 protected:
  void load(const std::vector<std::string>& folded) {
    dir_ = testing::temp_path("profile");
    ASSERT_EQ(testing::write_folded_experiment(dir_, folded), "");
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    ASSERT_TRUE(r.experiment->problems.empty()) << r.experiment->problems[0].message;
    profile_.add_experiment(std::move(*r.experiment));
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  FuncId find(const std::string& name) {
    for (FuncId f = 0; f < profile_.functions().size(); ++f)
      if (profile_.functions().at(f).name == name) return f;
    ADD_FAILURE() << "no function " << name;
    return 0;
  }
  int64_t excl(const std::string& n) { return profile_.function_metrics().excl[find(n)][kUser] / 10000000; }
  int64_t incl(const std::string& n) { return profile_.function_metrics().incl[find(n)][kUser] / 10000000; }
  std::map<std::string, int64_t> attributed(const std::vector<Edge>& edges) {
    std::map<std::string, int64_t> out;
    for (const auto& e : edges) out[profile_.functions().at(e.other).name] = e.values[kUser] / 10000000;
    return out;
  }

  std::string dir_;
  Profile profile_;
};

// The manual's worked example (seed-spec §6.1): main calls A and B; A calls C(10); B does 5
// units and calls C(7.5) twice; C spends 20% itself, 40% in E and 40% in F; main does 2 units.
TEST_F(ProfileTest, ManualWorkedExample) {
  load({"main 2", "main;A;C 2", "main;A;C;E 4", "main;A;C;F 4", "main;B 5", "main;B;C 3",
        "main;B;C;E 6", "main;B;C;F 6"});
  EXPECT_EQ(excl("main"), 2);
  EXPECT_EQ(incl("main"), 32);
  EXPECT_EQ(excl("A"), 0);
  EXPECT_EQ(incl("A"), 10);
  EXPECT_EQ(excl("B"), 5);
  EXPECT_EQ(incl("B"), 20);
  EXPECT_EQ(excl("C"), 5);
  EXPECT_EQ(incl("C"), 25);
  EXPECT_EQ(incl("E"), 10);
  EXPECT_EQ(incl("<Total>"), 32);
  auto cc = profile_.callers_callees(find("C"));
  EXPECT_EQ(attributed(cc.callers), (std::map<std::string, int64_t>{{"A", 10}, {"B", 15}}));
  EXPECT_EQ(attributed(cc.callees), (std::map<std::string, int64_t>{{"E", 10}, {"F", 10}}));
  auto root = profile_.callers_callees(find("main"));
  EXPECT_EQ(attributed(root.callers), (std::map<std::string, int64_t>{{"<Total>", 32}}));
  EXPECT_EQ(attributed(root.callees), (std::map<std::string, int64_t>{{"A", 10}, {"B", 20}}));
}

// Recursion: an event counts once per function; the innermost frame receives it.
TEST_F(ProfileTest, RecursionCountedOnce) {
  load({"main;rec;rec;rec 7", "main;rec 3"});
  EXPECT_EQ(incl("rec"), 10);
  EXPECT_EQ(excl("rec"), 10);
  auto cc = profile_.callers_callees(find("rec"));
  EXPECT_EQ(attributed(cc.callers), (std::map<std::string, int64_t>{{"rec", 7}, {"main", 3}}));
  // Issue 15 item 5: the rec -> rec edge occurs in a stack, so it is listed, with the 0 the
  // recursion rule gives it (the event is rec's own).
  EXPECT_EQ(attributed(cc.callees), (std::map<std::string, int64_t>{{"rec", 0}}));
}

// Property: for every function, callers' attributed values sum to its inclusive value, and
// callees' attributed values plus its exclusive value sum to it too.
TEST_F(ProfileTest, AttributionSumsOverRandomStacks) {
  std::mt19937 rng(42);
  const std::vector<std::string> names = {"fa", "fb", "fc", "fd", "fe", "ff"};
  std::vector<std::string> folded;
  for (int i = 0; i < 200; ++i) {
    std::string s = "main";
    int depth = 1 + int(rng() % 12);
    for (int d = 0; d < depth; ++d) s += ";" + names[rng() % names.size()];
    folded.push_back(s + " " + std::to_string(1 + rng() % 5));
  }
  load(folded);
  const auto& fm = profile_.function_metrics();
  int64_t total = profile_.totals()[kUser];
  EXPECT_EQ(fm.incl[profile_.functions().total()][kUser], total);
  for (FuncId f : profile_.functions_with_data()) {
    auto cc = profile_.callers_callees(f);
    int64_t callers = 0, callees = 0;
    for (const auto& e : cc.callers) callers += e.values[kUser];
    for (const auto& e : cc.callees) callees += e.values[kUser];
    if (f != profile_.functions().total()) {
      EXPECT_EQ(callers, fm.incl[f][kUser]) << profile_.functions().at(f).name;
      EXPECT_EQ(callees + fm.excl[f][kUser], fm.incl[f][kUser]) << profile_.functions().at(f).name;
    } else {
      EXPECT_EQ(callees, total);
    }
  }
}

TEST_F(ProfileTest, EventFilterDropsEvents) {
  load({"main;A 3", "main;B 5"});
  FuncId a = find("A");
  profile_.set_event_filter([a](const filter::EventView& v) { return v.stack_funcs[0] != a; }, true);
  EXPECT_EQ(profile_.totals()[kUser], 5 * 10000000);
}


// A collapsed load object is one function: its internal calls disappear, its callers and
// callees stay, and the totals are unchanged.
TEST_F(ProfileTest, CollapsedObjectIsOneFunction) {
  load({"main;A;C 2", "main;B 5"});
  ObjId obj = profile_.functions().at(find("A")).object;
  profile_.set_object_expanded(obj, false);
  EXPECT_FALSE(profile_.object_expanded(obj));
  FuncId lib = profile_.object_function(obj);
  EXPECT_EQ(profile_.functions().at(lib).name, "<" + profile_.functions().object(obj).name + ">");
  const auto& fm = profile_.function_metrics();
  EXPECT_EQ(fm.excl[lib][kUser], 70000000);
  EXPECT_EQ(fm.incl[lib][kUser], 70000000);
  EXPECT_EQ(fm.incl[find("A")][kUser], 0);
  auto cc = profile_.callers_callees(lib);
  EXPECT_EQ(attributed(cc.callers), (std::map<std::string, int64_t>{{"<Total>", 7}}));
  EXPECT_TRUE(cc.callees.empty());
  profile_.set_object_expanded(obj, true);
  EXPECT_EQ(profile_.function_metrics().incl[find("A")][kUser], 20000000);
  EXPECT_EQ(profile_.objects_in_load_order(), std::vector<ObjId>{obj});
}

TEST_F(ProfileTest, ThreadsNumberedFromOneAndSamplesWithoutPoints) {
  load({"main;A 3"});
  ASSERT_EQ(profile_.threads(0).size(), 1u);
  EXPECT_EQ(profile_.threads(0)[0].number, 1u);
  EXPECT_EQ(profile_.threads(0)[0].tid, 1u);
  EXPECT_EQ(profile_.threads(0)[0].events, 3u);
  EXPECT_EQ(profile_.thread_number(0, 1), 1u);
  EXPECT_EQ(profile_.thread_number(0, 99), 0u);
  EXPECT_EQ(profile_.cpus(0), std::vector<int32_t>{0});
  EXPECT_EQ(profile_.sample_at(0, 12345), 1u);  // no sample points: one sample
}

}  // namespace
}  // namespace erkit::model

namespace erkit::model {
namespace {

// The clock samples are added per stack from model/clock_scan's sums (with a filter, over the
// samples it keeps); with set_clock_scan(false) sample by sample. Both give the same
// aggregates, in the same order, and the same function metrics (random filters:
// profile_clock_filter_test.cc).
TEST_F(ProfileTest, StackSumsEqualTheSampleBySamplePass) {
  std::mt19937 rng(7);
  std::vector<std::string> folded;
  const char* names[] = {"main", "a", "b", "c", "d"};
  for (int i = 0; i < 60; ++i) {
    std::string s = "main";
    for (int d = int(rng() % 4); d >= 0; --d) s += std::string(";") + names[1 + rng() % 4];
    folded.push_back(s + " " + std::to_string(1 + rng() % 5));
  }
  load(folded);
  auto snapshot = [&] {
    std::vector<std::pair<const ResolvedStack*, std::vector<int64_t>>> out;
    for (const auto& a : profile_.aggregates()) out.emplace_back(a.stack, std::vector<int64_t>(a.values, a.values + kMetricCount));
    return out;
  };
  auto fast = snapshot();
  auto fast_fm = profile_.function_metrics();
  ASSERT_GT(fast.size(), 10u);
  profile_.set_clock_scan(false);
  EXPECT_EQ(snapshot(), fast);
  EXPECT_EQ(profile_.function_metrics().excl, fast_fm.excl);
  EXPECT_EQ(profile_.function_metrics().incl, fast_fm.incl);
  profile_.set_event_filter([](const filter::EventView&) { return true; }, false);
  EXPECT_EQ(snapshot(), fast);
  profile_.set_clock_scan(true);
  EXPECT_EQ(snapshot(), fast);
}

}  // namespace
}  // namespace erkit::model
