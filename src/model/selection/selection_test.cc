#include "selection.h"

#include <gtest/gtest.h>

namespace erkit::selection {
namespace {

SelectionSpec ok(std::string_view s) {
  auto r = parse_selection(s);
  if (auto* e = std::get_if<SelectionError>(&r)) {
    ADD_FAILURE() << s << ": " << e->message << " at " << e->offset;
    return {};
  }
  return std::get<SelectionSpec>(r);
}
SelectionError bad(std::string_view s) {
  auto r = parse_selection(s);
  if (auto* e = std::get_if<SelectionError>(&r)) return *e;
  ADD_FAILURE() << "expected error: " << s;
  return {};
}

TEST(RangeSet, MergesAndPrints) {
  RangeSet r;
  r.add(5, 6);
  r.add(1, 4);
  r.add(9, 9);
  r.add(3, 3);
  EXPECT_EQ(r.to_string(), "1-6,9");
  EXPECT_TRUE(r.contains(1));
  EXPECT_TRUE(r.contains(6));
  EXPECT_FALSE(r.contains(7));
  EXPECT_TRUE(r.contains(9));
  EXPECT_FALSE(r.contains(0));
  EXPECT_EQ(RangeSet::all_values().to_string(), "all");
  EXPECT_EQ(RangeSet::all_values().to_string(31), "1-31");
  EXPECT_TRUE(RangeSet().empty());
}

TEST(SelectionParse, ManualExamples) {
  auto s = ok("1:1-4+2:5,6");
  ASSERT_EQ(s.terms.size(), 2u);
  EXPECT_EQ(s.terms[0].experiments->to_string(), "1");
  EXPECT_EQ(s.terms[0].objects.to_string(), "1-4");
  EXPECT_EQ(s.terms[1].objects.to_string(), "5-6");
  EXPECT_EQ(s.to_string(), "1:1-4+2:5-6");
  EXPECT_EQ(ok("1:1-4+2:5, 6").to_string(), "1:1-4+2:5-6");  // as printed in the manual
  EXPECT_EQ(ok("all:1,3-6").to_string(), "all:1,3-6");
  EXPECT_EQ(ok("2,4,9-11,23-32,38,40").to_string(), "2,4,9-11,23-32,38,40");
  EXPECT_EQ(ok("all").to_string(), "all");
  EXPECT_FALSE(ok("1,3-6").terms[0].experiments.has_value());
  EXPECT_EQ(ok("1-3:all").to_string(), "1-3:all");
}

TEST(SelectionParse, Errors) {
  EXPECT_EQ(bad("").message, "empty selection list");
  auto e = bad("1:1-4+2:x");
  EXPECT_EQ(e.offset, 8u);
  EXPECT_EQ(bad("1,").offset, 2u);
  EXPECT_EQ(bad("5-3").message, "range 5-3 is backwards");
  EXPECT_EQ(bad("1:2:3").offset, 3u);
  EXPECT_EQ(bad("alll").offset, 0u);
  EXPECT_EQ(bad("1-").offset, 2u);
  EXPECT_EQ(bad("+1").offset, 0u);
  EXPECT_EQ(bad("1+").offset, 2u);
  EXPECT_EQ(bad("99999999999999999999").message, "number too large");
  EXPECT_EQ(bad("-1").offset, 0u);
}

TEST(SelectionState, InitiallyEverything) {
  SelectionState st(2);
  EXPECT_TRUE(st.contains(Target::Samples, 1, 17));
  EXPECT_TRUE(st.contains(Target::Cpus, 2, 0));
  EXPECT_TRUE(st.experiment_selected(2));
  EXPECT_FALSE(st.experiment_selected(3));
  EXPECT_EQ(st.to_string(Target::Threads), "all");
}

TEST(SelectionState, PerExperiment) {
  SelectionState st(2);
  ASSERT_FALSE(st.apply(Target::Samples, "1:1-4+2:5,6"));
  EXPECT_TRUE(st.contains(Target::Samples, 1, 4));
  EXPECT_FALSE(st.contains(Target::Samples, 1, 5));
  EXPECT_TRUE(st.contains(Target::Samples, 2, 6));
  EXPECT_FALSE(st.contains(Target::Samples, 2, 1));
  EXPECT_EQ(st.to_string(Target::Samples), "1:1-4+2:5-6");
  EXPECT_TRUE(st.contains(Target::Threads, 1, 99));  // other targets untouched
}

TEST(SelectionState, AllExperiments) {
  SelectionState st(3);
  ASSERT_FALSE(st.apply(Target::Threads, "all:1,3-6"));
  for (uint32_t x = 1; x <= 3; ++x) {
    EXPECT_TRUE(st.contains(Target::Threads, x, 1));
    EXPECT_FALSE(st.contains(Target::Threads, x, 2));
  }
  EXPECT_EQ(st.to_string(Target::Threads), "1-3:1,3-6");
  ASSERT_FALSE(st.apply(Target::Threads, "2"));  // no prefix: all experiments
  EXPECT_EQ(st.to_string(Target::Threads), "1-3:2");
}

TEST(SelectionState, CrossCommandExperimentListRule) {
  SelectionState st(3);
  ASSERT_FALSE(st.apply(Target::Samples, "1:1-4+2:5,6"));
  // Same experiment list for threads (1,2): nothing else changes.
  ASSERT_FALSE(st.apply(Target::Threads, "1:1+2:2"));
  EXPECT_EQ(st.to_string(Target::Samples), "1:1-4+2:5-6");
  EXPECT_FALSE(st.experiment_selected(3));  // experiment 3 was not named
  EXPECT_FALSE(st.contains(Target::Samples, 3, 1));
  // New list {2,3}: experiment 1 selections are invalidated everywhere; 2 keeps its
  // selections; 3 gets "all" for the targets the command does not set.
  ASSERT_FALSE(st.apply(Target::Lwps, "2-3:7"));
  EXPECT_FALSE(st.experiment_selected(1));
  EXPECT_EQ(st.selection(Target::Samples, 1), nullptr);
  EXPECT_FALSE(st.contains(Target::Threads, 1, 1));
  EXPECT_EQ(st.selection(Target::Samples, 2)->to_string(), "5-6");
  EXPECT_EQ(st.selection(Target::Threads, 2)->to_string(), "2");
  EXPECT_TRUE(st.selection(Target::Samples, 3)->is_all());
  EXPECT_TRUE(st.selection(Target::Cpus, 3)->is_all());
  EXPECT_EQ(st.to_string(Target::Lwps), "2-3:7");
  // Back to all experiments: 1 comes back with "all" everywhere.
  ASSERT_FALSE(st.apply(Target::Cpus, "all:0-3"));
  EXPECT_TRUE(st.experiment_selected(1));
  EXPECT_TRUE(st.selection(Target::Samples, 1)->is_all());
  EXPECT_EQ(st.selection(Target::Samples, 2)->to_string(), "5-6");
}

TEST(SelectionState, ErrorsLeaveStateUnchanged) {
  SelectionState st(2);
  ASSERT_FALSE(st.apply(Target::Samples, "1:3"));
  auto e = st.apply(Target::Samples, "3:1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "experiment 3 does not exist");
  EXPECT_TRUE(st.apply(Target::Samples, "0:1"));
  EXPECT_TRUE(st.apply(Target::Samples, "1:"));
  EXPECT_EQ(st.to_string(Target::Samples), "1:3");
  EXPECT_FALSE(st.experiment_selected(2));
}

TEST(SelectionState, MergesTermsForSameExperiment) {
  SelectionState st(2);
  ASSERT_FALSE(st.apply(Target::Samples, "1:1-2+1:5+all:9"));
  EXPECT_EQ(st.selection(Target::Samples, 1)->to_string(), "1-2,5,9");
  EXPECT_EQ(st.selection(Target::Samples, 2)->to_string(), "9");
}

}  // namespace
}  // namespace erkit::selection
