// The query API: columns, sort, limit, filter, selections, views and expansion in; rows out,
// checked against the manual's worked example (seed-spec §6.1) computed by hand.
#include "model/query.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "folded_experiment.h"
#include "model/experiment_set.h"

namespace erkit::model {
namespace {

constexpr int64_t kTick = 10000000;  // ns per folded sample

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_path("query");
    ASSERT_EQ(testing::write_folded_experiment(dir_, {"main 2", "main;A;C 2", "main;A;C;E 4", "main;A;C;F 4",
                                                      "main;B 5", "main;B;C 3"}),
              "");
    LoadedSet set;
    std::string err;
    ASSERT_TRUE(load_experiment_set(p_, dir_, {}, &set, &err)) << err;
    ASSERT_EQ(set.paths.size(), 1u);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(dir_ + ".src");
  }
  FuncId find(const std::string& name) {
    for (FuncId f = 0; f < p_.functions().size(); ++f)
      if (p_.functions().at(f).name == name) return f;
    ADD_FAILURE() << "no function " << name;
    return 0;
  }
  // name -> first column value / kTick, in row order.
  std::vector<std::pair<std::string, int64_t>> rows(const QueryResult& r) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const auto& row : r.rows) out.emplace_back(p_.functions().at(row.func).name, row.values[0] / kTick);
    return out;
  }
  std::string dir_;
  Profile p_;
};

using Rows = std::vector<std::pair<std::string, int64_t>>;

TEST_F(QueryTest, FunctionListSortLimit) {
  QueryEngine q(p_);
  QueryRequest r;
  r.columns = {{'i', kUser}, {'e', kUser}};
  r.sort = {'i', kUser, false};
  QueryResult res = q.run(r);
  ASSERT_EQ(res.error, "");
  EXPECT_EQ(res.totals, (std::vector<int64_t>{20 * kTick, 20 * kTick}));
  EXPECT_EQ(rows(res), (Rows{{"<Total>", 20}, {"main", 20}, {"C", 13}, {"A", 10}, {"B", 8}, {"E", 4}, {"F", 4}}));
  EXPECT_EQ(res.rows[2].values[1], 5 * kTick);  // C exclusive
  r.sort = {'e', kUser, true};
  r.limit = 3;
  EXPECT_EQ(rows(q.run(r)), (Rows{{"<Total>", 20}, {"A", 10}, {"main", 20}}));
}

TEST_F(QueryTest, FilterAndSelections) {
  QueryEngine q(p_);
  QueryRequest r;
  r.columns = {{'i', kUser}};
  r.filter = "(FNAME(\"B\") SOME IN STACK)";
  QueryResult res = q.run(r);
  ASSERT_EQ(res.error, "");
  EXPECT_EQ(rows(res), (Rows{{"<Total>", 8}, {"B", 8}, {"C", 3}, {"main", 8}}));  // by exclusive time
  r.filter.clear();
  r.selections[selection::Target::Threads] = "2";  // the experiment has thread 1 only
  EXPECT_EQ(rows(q.run(r)), (Rows{{"<Total>", 0}}));
  r.selections[selection::Target::Threads] = "1";
  EXPECT_EQ(q.run(r).totals[0], 20 * kTick);
  r.filter = "FNAME(";
  EXPECT_NE(q.run(r).error, "");
  r.filter.clear();
  r.selections[selection::Target::Threads] = "x-";
  EXPECT_NE(q.run(r).error, "");
}

TEST_F(QueryTest, CallersCalleesAndHiddenObjects) {
  QueryEngine q(p_);
  QueryRequest r;
  r.columns = {{'a', kUser}};
  r.sort = {'a', kUser, false};
  r.view = QueryView::Callers;
  r.center = find("C");
  EXPECT_EQ(rows(q.run(r)), (Rows{{"A", 10}, {"B", 3}}));
  r.view = QueryView::Callees;
  EXPECT_EQ(rows(q.run(r)), (Rows{{"E", 4}, {"F", 4}}));
  // Hiding the functions' object folds them into one <object> function; the total stays.
  QueryRequest h;
  h.columns = {{'e', kUser}};
  h.hidden_objects = {p_.functions().at(find("C")).object};
  QueryResult res = q.run(h);
  ASSERT_EQ(res.rows.size(), 2u);
  EXPECT_EQ(res.totals[0], 20 * kTick);
  EXPECT_EQ(res.rows[1].values[0], 20 * kTick);
  EXPECT_EQ(p_.functions().at(res.rows[1].func).name, "<" + p_.functions().object(h.hidden_objects[0]).name + ">");
  // The next request expands it again.
  EXPECT_EQ(q.run(QueryRequest{}).rows.size(), 7u);
}

}  // namespace
}  // namespace erkit::model
