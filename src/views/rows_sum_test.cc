// Property (issue 15 item 6): in every report, the rows add up to <Total>, for every test
// experiment: leaves in no load object (<Unknown>), recursion, deep and shallow stacks, with
// load objects expanded and collapsed.
#include <gtest/gtest.h>

#include <filesystem>

#include "folded_experiment.h"
#include "views/function_views.h"
#include "views/line_views.h"

namespace erkit::views {
namespace {

const std::vector<std::vector<std::string>> kExperiments = {
    {"main;A;C 3", "main;A;A 4", "main;B 2"},
    {"main;? 5", "main;A 1", "? 2"},                    // leaves and roots in no object
    {"main;fib;fib;fib 7", "main;fib 1", "main;ping;pong;ping 3", "main;?;A 2"},
    {"A 1"},
};

// Sum of the exclusive column (index 0) over every row but <Total>, and <Total>'s value.
std::pair<int64_t, int64_t> sum_rows(const json::Value& report, const char* rows_key) {
  int64_t sum = 0, total = 0;
  for (const auto& row : report[rows_key].elements()) {
    int64_t v = row["values"][0].as_int();
    if (row["name"].as_string() == "<Total>") total = v;
    else sum += v;
  }
  return {sum, total};
}

TEST(RowsSumToTotal, EveryReportEveryExperiment) {
  const std::vector<ViewColumn> cols = {{'e', model::kUser, false}, {'i', model::kUser, false}};
  const SortSpec sort;
  const NameOptions names;
  for (size_t x = 0; x < kExperiments.size(); ++x) {
    std::string dir = testing::temp_path("rowsum");
    ASSERT_EQ(testing::write_folded_experiment(dir, kExperiments[x]), "");
    auto r = reader::open_experiment(dir);
    ASSERT_TRUE(r.experiment) << r.error;
    model::Profile p;
    p.add_experiment(std::move(*r.experiment));
    const int64_t total = p.totals()[model::kUser];
    ASSERT_GT(total, 0);
    for (bool collapse : {false, true}) {
      LineViewOptions o;
      if (collapse)
        for (model::FuncId f = 0; f < p.functions().size(); ++f)
          if (p.functions().at(f).name == "main") o.collapsed.insert(p.functions().at(f).object);
      SCOPED_TRACE(::testing::Message() << "experiment " << x << (collapse ? " collapsed" : " expanded"));
      auto [lsum, ltotal] = sum_rows(lines_json(p, cols, sort, 0, names, o), "rows");
      EXPECT_EQ(ltotal, total);
      EXPECT_EQ(lsum, total) << lines_json(p, cols, sort, 0, names, o).dump(1);
      auto [psum, ptotal] = sum_rows(pcs_json(p, cols, sort, 0, names, o), "rows");
      EXPECT_EQ(ptotal, total);
      EXPECT_EQ(psum, total) << pcs_json(p, cols, sort, 0, names, o).dump(1);
    }
    auto [fsum, ftotal] = sum_rows(function_list_json(p, cols, sort, 0, names), "rows");
    EXPECT_EQ(ftotal, total);
    EXPECT_EQ(fsum, total) << function_list_json(p, cols, sort, 0, names).dump(1);
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(dir + ".src");
  }
}

}  // namespace
}  // namespace erkit::views
