#include "views/line_views.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "folded_experiment.h"

namespace erkit::views {
namespace {

// Lines and PCs of a synthetic experiment (one load object, funcs.so, without line
// information), with that object expanded and collapsed.
class LineViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_path("lineviews");
    ASSERT_EQ(testing::write_folded_experiment(dir_, {"main;A;C 3", "main;A;A 4", "main;B 2"}), "");
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    profile_.add_experiment(std::move(*r.experiment));
    profile_.aggregates();
    const auto& ft = profile_.functions();
    for (model::FuncId f = 0; f < ft.size(); ++f)
      if (ft.at(f).name == "A") object_ = ft.at(f).object;
    ASSERT_NE(object_, model::kNoObject);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  LineViewOptions collapsed() {
    LineViewOptions o;
    o.collapsed.insert(object_);
    return o;
  }
  std::string dir_;
  model::Profile profile_;
  model::ObjId object_ = model::kNoObject;
  const std::vector<ViewColumn> cols_ = {{'e', model::kUser, false}, {'i', model::kUser, false}};
  const SortSpec sort_;
  const NameOptions names_;
};

TEST_F(LineViewsTest, ExpandedObjectShowsEachFunctionsLinelessAggregate) {
  std::string l = render_lines(profile_, cols_, sort_, 0, names_);
  EXPECT_TRUE(std::regex_search(l, std::regex(R"(0\.030\s+0\.030\s+<Function: C, instructions without line numbers>)")))
      << l;
  EXPECT_TRUE(std::regex_search(l, std::regex(R"(0\.040\s+0\.070\s+<Function: A, instructions without line numbers>)")))
      << l;
  EXPECT_EQ(l.find("<funcs.so>"), std::string::npos) << l;
  std::string p = render_pcs(profile_, cols_, sort_, 0, names_);
  EXPECT_TRUE(std::regex_search(p, std::regex(R"(\n\s+0\.030\s+0\.030\s+C \+ 0x00000001\n)"))) << p;
}

// A collapsed object is one row whose inclusive value counts each stack once (the 9 samples),
// not once per line or PC of the object the stack passes through.
TEST_F(LineViewsTest, CollapsedObjectIsOneRowCountedOncePerStack) {
  const std::regex row(R"(\n\s+0\.090\s+0\.090\s+<funcs\.so>\n)");
  for (auto* render : {&render_lines, &render_pcs}) {
    std::string t = (*render)(profile_, cols_, sort_, 0, names_, collapsed());
    EXPECT_TRUE(std::regex_search(t, row)) << t;
    EXPECT_EQ(t.find("<Function:"), std::string::npos) << t;
    EXPECT_EQ(t.find(" + 0x"), std::string::npos) << t;
    // <Total> and the object's row.
    EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 7) << t;
  }
  for (auto* render : {&render_line_summaries, &render_pc_summaries}) {
    std::string s = (*render)(profile_, cols_, sort_, 0, names_, collapsed());
    EXPECT_EQ(s.rfind("<funcs.so>\n", 0), 0u) << s;
    EXPECT_NE(s.find("Exclusive User CPU Time:  0.090 (100.00%)"), std::string::npos) << s;
    EXPECT_NE(s.find("Inclusive User CPU Time:  0.090 (100.00%)"), std::string::npos) << s;
    EXPECT_NE(s.find("Load Object:  " + dir_ + ".src/funcs.so"), std::string::npos) << s;
    EXPECT_EQ(s.find("PC Address"), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace erkit::views
