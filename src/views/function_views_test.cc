#include "views/function_views.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "folded_experiment.h"
#include "views/function_summary.h"

namespace erkit::views {
namespace {

class FunctionViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_path("views");
    ASSERT_EQ(testing::write_folded_experiment(
                  dir_, {"main;solve;kernel 5", "main;solve;helper 3", "main;kernel 2", "main;solve;solve;kernel 1"}),
              "");
    auto r = reader::open_experiment(dir_);
    ASSERT_TRUE(r.experiment) << r.error;
    profile_.add_experiment(std::move(*r.experiment));
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  std::string dir_;
  model::Profile profile_;
  std::vector<ViewColumn> cols_{{'a', model::kUser, false}, {'a', model::kUser, true}, {'i', model::kUser, false}};
};

// The callers-callees report keeps each panel as text: the same text as the panel's values.
TEST_F(FunctionViewsTest, CallersCalleesJsonPanelsAreThePanelValues) {
  SortSpec sort{'i', model::kUser, false}, csort{'a', model::kUser, false};
  json::Value doc;
  std::string err;
  ASSERT_TRUE(json::parse(callers_callees_json(profile_, cols_, sort, csort, 0, {}).dump(), &doc, &err)) << err;
  auto funcs = sorted_functions(profile_, sort, 0);
  ASSERT_EQ(doc["panels"].size(), funcs.size());
  for (size_t i = 0; i < funcs.size(); ++i)
    EXPECT_EQ(doc["panels"][i].dump(), callers_callees_panel_json(profile_, funcs[i], cols_, csort, {}).dump());
}

// The streamed call tree is the rendered one, and its JSON nests like its text.
TEST_F(FunctionViewsTest, CallTreeTextAndJson) {
  std::vector<ViewColumn> cols{{'e', model::kUser, false}, {'i', model::kUser, true}};
  SortSpec sort{'i', model::kUser, false};
  std::string chunks;
  write_call_tree(profile_, cols, sort, 0, {}, [&](std::string_view c) { chunks += c; });
  const std::string text = render_call_tree(profile_, cols, sort, 0, {});
  EXPECT_EQ(chunks, text);
  EXPECT_NE(text.find("\n      0.    100.00   +-<Total>\n"), std::string::npos) << text;
  EXPECT_NE(text.find("         +-solve\n"), std::string::npos) << text;  // solve;solve: depth 3
  json::Value doc;
  std::string err;
  ASSERT_TRUE(json::parse(call_tree_json(profile_, cols, sort, 0, {}).dump(), &doc, &err)) << err;
  const json::Value& root = doc["root"];
  EXPECT_EQ(root["name"].as_string(), "<Total>");
  ASSERT_EQ(root["children"].size(), 1u);
  const json::Value& main = root["children"][0];
  EXPECT_EQ(main["name"].as_string(), "main");
  EXPECT_EQ(main["values"][1].as_double(), 100.0);
  ASSERT_EQ(main["children"].size(), 2u);
  EXPECT_EQ(main["children"][0]["name"].as_string(), "solve");  // 9 samples before kernel's 2
  EXPECT_EQ(main["children"][0]["values"][1].as_double(), 100.0 * 9 / 11);
}

}  // namespace
}  // namespace erkit::views
