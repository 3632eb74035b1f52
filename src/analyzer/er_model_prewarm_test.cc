// Prewarming on the prewarm session (er_model_prewarm.cc): a page request never waits for a
// prewarm report, and what the prewarm session keeps is exactly what the page's session (and
// er_print) gives under the page's current settings.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <map>
#include <thread>

#include "analyzer/er_model.h"
#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::analyzer {
namespace {

class ErModelPrewarmTest : public erprint::testing::SessionFixture {
 protected:
  void SetUp() override {
    erprint::testing::Synthetic s;
    s.clock = {"main;solve;kernel 30", "main;solve 10", "main;io 5", "main;setup 3"};
    add(s);
    open();
    run("outformat json");
    std::string error;
    ASSERT_TRUE(m.load({path(0)}, &error)) << error;
  }
  std::string dump(const std::string& text) {
    json::Value v;
    std::string error;
    EXPECT_TRUE(json::parse(text, &v, &error)) << error << "\n" << text;
    return v.kind() == json::Value::Kind::Array && v.size() == 1 ? v[0].dump() : v.dump();
  }
  ErModel m;
};

TEST_F(ErModelPrewarmTest, KeptReportsAreThePageSessionsUnderItsCurrentSettings) {
  EXPECT_EQ(dump(m.run({"functions"})), dump(run("functions")));  // the first screen
  m.prewarm({"functions", "calltree", "statistics", "#edges", "#annotation", "#swap", "callers-callees"}, 1000);
  EXPECT_EQ(m.prewarm_kept(), 2u);  // calltree, statistics
  // The page now has the prewarm session (its edges and line metrics built), the prewarm
  // session the page's: the same settings, the same reports. The prewarm session then skips
  // callers-callees: it would build the edges again, which the page's session has.
  EXPECT_EQ(m.prewarm_swaps(), 1u);
  EXPECT_EQ(m.prewarm_build_skips(), 1u);
  EXPECT_EQ(dump(m.calltree(1000)), dump(run("calltree")));
  EXPECT_EQ(dump(m.run({"statistics"})), dump(run("statistics")));
  EXPECT_EQ(dump(m.run({"callers-callees"})), dump(run("callers-callees")));
  // A setting of the page after the prewarm session was loaded: it is replayed there before
  // the next report, so the kept function list has two rows, as er_print's after `limit 2`.
  m.run({"limit 2"});
  m.prewarm({"statistics", "functions"}, 1000);
  EXPECT_EQ(m.prewarm_kept(), 3u);
  run("limit 2");
  const std::string f = dump(m.run({"functions"}));
  EXPECT_EQ(f, dump(run("functions")));
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(f, &v, &error));
  EXPECT_EQ(v["data"]["rows"].size(), 2u);
  // A swap only when both sessions have the same settings: the prewarm session replays the
  // `limit 2` first, builds the edges (the page's are of other settings), then hands itself
  // over; the page's later reports are er_print's.
  m.run({"limit 3"});
  m.prewarm({"statistics", "#edges", "#swap", "lines"}, 1000);
  EXPECT_EQ(m.prewarm_swaps(), 2u);
  run("limit 3");
  EXPECT_EQ(dump(m.run({"functions"})), dump(run("functions")));
  EXPECT_EQ(dump(m.run({"lines"})), dump(run("lines")));
}

// The id of function `name` in the page's function list.
uint64_t function_id(ErModel& m, const std::string& name) {
  json::Value fl;
  std::string error;
  EXPECT_TRUE(json::parse(m.run({"functions"}), &fl, &error)) << error;
  for (const auto& r : fl[0]["data"]["rows"].elements())
    if (r["name"].as_string() == name) return uint64_t(r["id"].as_int());
  ADD_FAILURE() << "no function " << name;
  return 0;
}

TEST_F(ErModelPrewarmTest, APageRequestWaitsForTheBuildThePrewarmSessionMakesAndTakesIt) {
  const uint64_t kernel = function_id(m, "kernel");
  m.prewarm({"functions", "statistics"}, 1000);  // the prewarm session is loaded
  // While the prewarm session builds the edges, the page asks for a Callers-Callees panel:
  // it waits for that build and is answered from the prewarm session (the two trade places)
  // instead of building the edges a second time on its own session.
  std::future<std::string> page;
  bool waited = false;
  std::string error;
  m.on_build_for_test([&](const std::string& what) {
    if (what != "#edges") return;
    page = std::async(std::launch::async, [&] { return m.run_for_function("csingle", kernel, &error); });
    // Until the request waits, or is answered without waiting (the failure), at most 120 s.
    for (int i = 0; i < 12000 && !waited; ++i)
      if (!(waited = m.page_build_waits() == 1) && page.wait_for(std::chrono::milliseconds(10)) == std::future_status::ready)
        break;
    // Still waiting while the build is under way: not answered from a build of its own.
    EXPECT_NE(page.wait_for(std::chrono::milliseconds(200)), std::future_status::ready);
  });
  m.prewarm({"statistics", "#edges", "#annotation"}, 1000);
  m.on_build_for_test(nullptr);
  ASSERT_TRUE(waited) << "the page request did not wait for the prewarm session's build";
  ASSERT_TRUE(page.valid());
  const std::string got = page.get();
  EXPECT_EQ(error, "");
  EXPECT_EQ(m.page_build_waits(), 1u);
  EXPECT_EQ(m.prewarm_swaps(), 1u);  // handed over at the end of the build, not at #swap
  EXPECT_EQ(dump(got), dump(run("csingle kernel")));
  // The line metrics were then built on the other session (the page's former one), which the
  // page takes at its first Source click, the prewarm session being free.
  const std::string src = m.run_for_function("source", kernel, &error);
  EXPECT_EQ(m.prewarm_swaps(), 2u);
  EXPECT_EQ(m.page_build_waits(), 1u);
  const std::string direct = run("source kernel");
  if (ok_) {
    EXPECT_EQ(dump(src), dump(direct));
  }
}

TEST_F(ErModelPrewarmTest, ABuildThePageMadeFirstIsSkippedByThePrewarmSession) {
  const uint64_t kernel = function_id(m, "kernel");
  std::string error;
  // The click comes before the prewarm session started the edges: the page builds them.
  const std::string cc = m.run_for_function("csingle", kernel, &error);
  EXPECT_EQ(dump(cc), dump(run("csingle kernel")));
  m.prewarm({"functions", "#edges", "#annotation", "#swap"}, 1000);
  EXPECT_EQ(m.prewarm_build_skips(), 1u);  // #edges: the page's session has them
  EXPECT_EQ(m.page_build_waits(), 0u);
  // #swap would cost the page its edges for the line metrics: no swap.
  EXPECT_EQ(m.prewarm_swaps(), 0u);
  EXPECT_EQ(dump(m.run({"callers-callees"})), dump(run("callers-callees")));
}

TEST_F(ErModelPrewarmTest, SelectedFunctionsReportsComeFromThePrewarmSession) {
  json::Value fl;
  std::string error;
  ASSERT_TRUE(json::parse(m.run({"functions"}), &fl, &error));
  uint64_t kernel = 0;
  for (const auto& r : fl[0]["data"]["rows"].elements())
    if (r["name"].as_string() == "kernel") kernel = uint64_t(r["id"].as_int());
  ASSERT_NE(kernel, 0u);
  m.prewarm({"functions", "#edges"}, 1000);
  const size_t kept = m.prewarm_kept();
  // Reports with an error (no object file for disasm, say) are not kept.
  size_t reports = 0;
  std::map<std::string, std::string> direct;
  for (const char* cmd : {"csingle", "source", "disasm"}) {
    direct[cmd] = run(std::string(cmd) + " kernel");
    reports += ok_ ? 1 : 0;
  }
  EXPECT_GE(reports, 1u);
  std::thread t([&] { m.prewarm_selections(); });
  m.want_function(kernel);
  // csingle, source and disasm of kernel, then nothing more to do: stop.
  for (int i = 0; i < 6000 && m.prewarm_kept() < kept + reports; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  m.stop_prewarm();
  t.join();
  EXPECT_EQ(m.prewarm_kept(), kept + reports);
  for (const char* cmd : {"csingle", "source", "disasm"}) {
    if (direct[cmd].empty()) continue;  // er_print's error: nothing kept
    const std::string got = m.run_for_function(cmd, kernel, &error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(dump(got), dump(direct[cmd])) << cmd;
  }
}

TEST_F(ErModelPrewarmTest, APageRequestIsAnsweredWhileThePrewarmSessionIsBusy) {
  m.run({"functions"});
  m.prewarm({"functions", "statistics"}, 1000);  // the prewarm session is loaded
  // The prewarm session held as by a long report: the page's own requests still go through
  // (before, prewarm reports ran on the page's session and a click waited for them).
  std::unique_lock<std::mutex> hold = m.hold_prewarm_session();
  auto f = std::async(std::launch::async, [&] { return m.run({"limit 3", "calltree", "lines"}); });
  const bool answered = f.wait_for(std::chrono::seconds(120)) == std::future_status::ready;
  hold.unlock();
  ASSERT_TRUE(answered) << "a page request waited for the prewarm session";
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(f.get(), &v, &error)) << error;
  ASSERT_EQ(v.size(), 3u);
  run("limit 3");
  EXPECT_EQ(v[1].dump(), dump(run("calltree")));
}

}  // namespace
}  // namespace erkit::analyzer
