// ErModel answers with er_print's own JSON reports: the same objects a Session in JSON mode
// prints for the same commands, and nothing the API does not allow.
#include "analyzer/er_model.h"

#include <gtest/gtest.h>

#include <set>

#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::analyzer {
namespace {

class ErModelTest : public erprint::testing::SessionFixture {
 protected:
  void SetUp() override {
    erprint::testing::Synthetic s;
    s.clock = {"main;solve;kernel 30", "main;solve 10", "main;io 5"};
    add(s);
    open();
    run("outformat json");
    std::string error;
    ASSERT_TRUE(m.load({path(0)}, &error)) << error;
  }
  json::Value parse(const std::string& text) {
    json::Value v;
    std::string error;
    EXPECT_TRUE(json::parse(text, &v, &error)) << error << "\n" << text;
    return v;
  }
  ErModel m;
};

TEST_F(ErModelTest, ReportsAreErPrintsJson) {
  for (const char* cmd : {"functions", "calltree", "callers-callees", "overview", "statistics", "header"}) {
    json::Value api = parse(m.run({cmd}));
    ASSERT_EQ(api.size(), 1u) << cmd;
    json::Value direct = parse(run(cmd));
    EXPECT_EQ(api[0].dump(), direct.dump()) << cmd;
  }
  json::Value f = parse(m.run({"functions"}))[0]["data"];
  // <Total> first: 45 samples of 10 ms; kernel 30 of them.
  EXPECT_EQ(f["rows"][0]["name"].as_string(), "<Total>");
  EXPECT_EQ(f["rows"][0]["values"][0].as_int(), 450000000);
  EXPECT_EQ(f["rows"][1]["name"].as_string(), "kernel");
  EXPECT_EQ(f["rows"][1]["values"][0].as_int(), 300000000);
}

TEST_F(ErModelTest, SettingsPersistLikeAnErPrintSession) {
  // A report is kept until a setting changes: then it is computed again.
  EXPECT_EQ(parse(m.run({"functions"}))[0]["data"]["rows"].size(), 5u);
  json::Value v = parse(m.run({"limit 2", "functions"}));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1]["data"]["rows"].size(), 2u);
  v = parse(m.run({"functions"}));
  EXPECT_EQ(v[0]["data"]["rows"].size(), 2u);
  v = parse(m.run({"nosuchcommand"}));
  EXPECT_FALSE(v[0]["error"].as_string().empty());
  EXPECT_EQ(v[0]["command"].as_string(), "nosuchcommand");
  EXPECT_EQ(v[0]["schema"].as_string(), "erkit.er_print");
}

TEST_F(ErModelTest, CalltreeCutByLimitWithoutChangingIt) {
  json::Value full = parse(m.calltree(1000))[0];
  EXPECT_EQ(full.dump(), parse(run("calltree")).dump());
  // Three nodes depth-first: <Total>, main, solve.
  json::Value cut = parse(m.calltree(3))[0]["data"]["root"];
  ASSERT_EQ(cut["children"].size(), 1u);
  EXPECT_EQ(cut["children"][0]["name"].as_string(), "main");
  ASSERT_EQ(cut["children"][0]["children"].size(), 1u);
  EXPECT_EQ(cut["children"][0]["children"][0]["name"].as_string(), "solve");
  EXPECT_EQ(cut["children"][0]["children"][0]["children"].size(), 0u);
  EXPECT_EQ(parse(m.run({"limit"}))[0]["data"]["current"].as_int(), 0);
  EXPECT_EQ(parse(m.run({"functions"}))[0]["data"]["rows"].size(), 5u);
}

TEST_F(ErModelTest, OnlyReportAndViewCommands) {
  std::string why;
  EXPECT_TRUE(ErModel::allowed_command("functions", &why));
  EXPECT_TRUE(ErModel::allowed_command("func", &why));  // unique prefix, as er_print
  EXPECT_TRUE(ErModel::allowed_command("filters \"TSTAMP >= 0\"", &why));
  for (const char* bad : {"outfile /tmp/x", "appendfile /tmp/x", "script /etc/passwd", "source /etc/passwd",
                          "disasm main", "setpath /", "mapfile /tmp/x", "quit", "", "\"unterminated"}) {
    EXPECT_FALSE(ErModel::allowed_command(bad, &why)) << bad;
    EXPECT_FALSE(why.empty());
  }
}

TEST_F(ErModelTest, FunctionReportsByIdEqualNamedOnes) {
  json::Value f = parse(m.run({"functions"}))[0]["data"];
  int64_t kernel = -1;
  for (const auto& r : f["rows"].elements())
    if (r["name"].as_string() == "kernel") kernel = r["id"].as_int();
  ASSERT_GE(kernel, 0);
  std::string error;
  json::Value byid = parse(m.run_for_function("csingle", uint64_t(kernel), &error));
  EXPECT_EQ(error, "");
  json::Value named = parse(run("csingle kernel"));
  EXPECT_EQ(byid[0].dump(), named.dump());
  EXPECT_EQ(m.run_for_function("outfile", 0, &error), "");
  EXPECT_NE(error, "");
  error.clear();
  EXPECT_EQ(m.run_for_function("source", 1u << 30, &error), "");
  EXPECT_NE(error, "");
}

TEST_F(ErModelTest, TimelineEventsAddUpToThreadListWithTheirStacks) {
  json::Value e = parse(m.timeline_events(0, 0, 4));
  json::Value tl = parse(m.run({"thread_list"}))[0]["data"];
  // Per thread: the events thread_list counts, all of them clock samples here.
  size_t k = 0;
  int64_t total = 0;
  for (const auto& x : tl["experiments"].elements())
    for (const auto& t : x["threads"].elements()) {
      const json::Value& th = e["threads"][k++];
      EXPECT_EQ(th["thread"].as_int(), t["thread"].as_int());
      EXPECT_EQ(th["lwp"].as_int(), t["lwp"].as_int());
      EXPECT_EQ(th["events"].as_int(), t["events"].as_int());
      EXPECT_EQ(th["kinds"]["clock"]["count"].as_int(), t["events"].as_int());
      total += th["events"].as_int();
      // At most one event shown per slice of the run.
      EXPECT_LE(th["kinds"]["clock"]["shown"].size(), 4u);
    }
  EXPECT_EQ(k, e["threads"].size());
  EXPECT_EQ(total, 45);
  // Each shown event's stack names functions leaf first: the three stacks of the experiment.
  std::set<std::string> stacks;
  for (const auto& s : e["stacks"].elements()) {
    std::string names;
    for (const auto& f : s.elements()) names += e["functions"][std::to_string(f.as_int())].as_string() + ";";
    stacks.insert(names);
  }
  for (const auto& s : stacks)
    EXPECT_TRUE(s == "kernel;solve;main;" || s == "solve;main;" || s == "io;main;") << s;
  // A narrower window shows no event outside it.
  const int64_t end = e["end_ns"].as_int();
  json::Value half = parse(m.timeline_events(0, uint64_t(end / 2), 1000));
  for (const auto& th : half["threads"].elements())
    for (const auto& ev : th["kinds"]["clock"]["shown"].elements()) EXPECT_LT(ev[0].as_int(), end / 2);
}

}  // namespace
}  // namespace erkit::analyzer
