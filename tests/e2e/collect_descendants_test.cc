// End-to-end: collect -F follows descendant processes (seed-spec §5.3). Every descendant's
// own CPU work must land in its own experiment, named by lineage, and nowhere else.
#include <filesystem>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

class CollectDescendants : public CollectTest {
 protected:
  // Every child burns 150 ms of CPU in a function named after how it started; 10 ms clock
  // samples weighted by the thread's measured CPU time: within ±50 ms.
  void expect_burn(const std::string& exp, const std::string& fn, double seconds) {
    auto rows = user_seconds(exp);
    EXPECT_NEAR(seconds_of(rows, fn), seconds, 0.05) << exp << " " << fn;
  }
  std::vector<std::string> descendant_dirs(const std::string& exp) {
    std::vector<std::string> out;
    for (const auto& d : fs::directory_iterator(path(exp)))
      if (d.is_directory() && d.path().filename().string()[0] == '_') out.push_back(d.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(CollectDescendants, FollowOnNamesEveryKindOfChildByLineage) {
  auto c = collect("-F on " + family() +
                   " burn:60 fork:150 vfork:150 clone:150 execfail spawn:burn:150 system:say:sys popen:say:pop"
                   " exec:burn:150+fork:150");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("exec failed as expected"), std::string::npos);
  EXPECT_NE(c.out.find("popen lines 1 status 0"), std::string::npos) << c.out;
  // fork, vfork (+ its exec), clone, the failed exec, posix_spawn, the final exec and its fork;
  // -F on does not follow system/popen.
  EXPECT_EQ(descendant_dirs("test.1.er"),
            (std::vector<std::string>{"_c1.er", "_f1.er", "_f2.er", "_f2_x1.er", "_f3.er", "_x1.er", "_x2.er",
                                      "_x2_f1.er"}));
  expect_burn("test.1.er/_f1.er", "burn_forked", 0.15);
  expect_burn("test.1.er/_f2_x1.er", "burn_main", 0.15);
  expect_burn("test.1.er/_f3.er", "burn_cloned", 0.15);
  expect_burn("test.1.er/_c1.er", "burn_main", 0.15);
  expect_burn("test.1.er/_x2.er", "burn_main", 0.15);
  expect_burn("test.1.er/_x2_f1.er", "burn_forked", 0.15);
  // The founder's own profile has only its own work: no child's burn (descendants are loaded
  // with it by default since issue 15: en_desc off).
  std::map<std::string, double> founder;
  for (const auto& [name, row] : parse_function_list(er_print("-en_desc off -functions test.1.er").out))
    if (!row.values.empty()) founder[name] = row.values[0];
  EXPECT_NEAR(seconds_of(founder, "burn_main"), 0.06, 0.04);
  EXPECT_EQ(seconds_of(founder, "burn_forked") + seconds_of(founder, "burn_cloned"), 0.0);

  auto f = open("test.1.er");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->log.collector_exit, "exec");  // the founder's image ended by its last exec
  std::vector<std::string> lineages;
  for (const auto& d : f->log.children) lineages.push_back(d.lineage + (d.failed ? "!" : "") + ":" + d.kind);
  EXPECT_EQ(lineages, (std::vector<std::string>{"_f1:fork", "_f2:vfork", "_f3:clone", "_x1:exec", "_c1:spawn",
                                                "_x2:exec"}));
  // Samples just before and after each fork-like call.
  int fork_samples = 0;
  for (const auto& s : f->samples) fork_samples += s.rec.reason == format::kSampleFork;
  EXPECT_EQ(fork_samples, 2 * 4);

  auto x1 = open("test.1.er/_x1.er");
  ASSERT_TRUE(x1);
  EXPECT_TRUE(x1->log.exec_failed);
  EXPECT_EQ(x1->log.lineage, "_x1");
  EXPECT_EQ(x1->log.target, "/nonexistent/program");
  auto f2x1 = open("test.1.er/_f2_x1.er");
  ASSERT_TRUE(f2x1);
  EXPECT_EQ(f2x1->log.origin_kind, "exec");
  EXPECT_EQ(f2x1->log.args, "burn:150");
  EXPECT_EQ(f2x1->log.parent_pid, f2x1->log.pid);  // exec keeps the pid
  // Descendants keep no archives of their own (seed-spec §5.3): all are in the founder's.
  for (const auto& d : descendant_dirs("test.1.er")) EXPECT_FALSE(exists("test.1.er/" + d + "/archives")) << d;
  EXPECT_TRUE(exists("test.1.er/archives"));
}

TEST_F(CollectDescendants, FollowAllAddsSystemAndPopenShells) {
  auto c = collect("-F all " + family() + " system:burn:150+exit:3 popen:say:hello+burn:150");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("system status 3"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("popen lines 1 status 0"), std::string::npos) << c.out;
  auto dirs = descendant_dirs("test.1.er");
  // The shells are _c1 and _c2; whatever they start (fork + exec, or exec) descends from them.
  double from_system = 0, from_popen = 0;
  for (const auto& d : dirs) {
    auto rows = user_seconds("test.1.er/" + d);
    (d.rfind("_c1", 0) == 0 ? from_system : from_popen) += seconds_of(rows, "burn_main");
    EXPECT_TRUE(d.rfind("_c1", 0) == 0 || d.rfind("_c2", 0) == 0) << d;
  }
  EXPECT_NE(std::find(dirs.begin(), dirs.end(), "_c1.er"), dirs.end());
  EXPECT_NE(std::find(dirs.begin(), dirs.end(), "_c2.er"), dirs.end());
  EXPECT_NEAR(from_system, 0.15, 0.05);
  EXPECT_NEAR(from_popen, 0.15, 0.05);
  auto c1 = open("test.1.er/_c1.er");
  ASSERT_TRUE(c1);
  EXPECT_EQ(c1->log.origin_kind, "system");
}

TEST_F(CollectDescendants, UnfollowedChildrenSeeNoTraceOfTheCollector) {
  // -F off: nothing followed; -F on: shells not followed. Their environment must be clean.
  ASSERT_EQ(collect(family() + " system:env:off_env.txt fork:10").status, 0);
  EXPECT_TRUE(descendant_dirs("test.1.er").empty());
  ASSERT_EQ(collect("-F on " + family() + " system:env:on_env.txt").status, 0);
  ASSERT_EQ(collect("-F all " + family() + " system:env:all_env.txt").status, 0);
  for (const char* f : {"off_env.txt", "on_env.txt"}) {
    std::string env = read(f);
    ASSERT_FALSE(env.empty()) << f;
    EXPECT_EQ(env.find("ERKIT_"), std::string::npos) << f << "\n" << env;
    EXPECT_EQ(env.find("libcollector"), std::string::npos) << f;
  }
  std::string all = read("all_env.txt");
  EXPECT_NE(all.find("ERKIT_LINEAGE=_c1"), std::string::npos) << all;
}

TEST_F(CollectDescendants, RegexSelectsByLineageOrProgramName) {
  ASSERT_EQ(collect("-F =_f2 " + family() + " fork:50 fork:150 fork:50").status, 0);
  EXPECT_EQ(descendant_dirs("test.1.er"), (std::vector<std::string>{"_f2.er"}));
  expect_burn("test.1.er/_f2.er", "burn_forked", 0.15);
  // By program name: true is recorded, echo is not (but still runs).
  auto c = collect("-F '=^true$' " + family() + " spawnp:true spawnp:echo+hi");
  ASSERT_EQ(c.status, 0);
  EXPECT_NE(c.out.find("hi"), std::string::npos);
  EXPECT_EQ(descendant_dirs("test.2.er"), (std::vector<std::string>{"_c1.er"}));
  auto t = open("test.2.er/_c1.er");
  ASSERT_TRUE(t);
  EXPECT_NE(t->log.exe.find("true"), std::string::npos) << t->log.exe;
  // A dormant (unselected) process still counts and names its own descendants.
  ASSERT_EQ(collect("-F =_f1_f2 " + family() + " exec:fork:10+fork:20").status, 0);
  EXPECT_TRUE(descendant_dirs("test.3.er").empty());
  ASSERT_EQ(collect("-F =_x1_f2 " + family() + " exec:fork:10+fork:150").status, 0);
  EXPECT_EQ(descendant_dirs("test.4.er"), (std::vector<std::string>{"_x1_f2.er"}));
  expect_burn("test.4.er/_x1_f2.er", "burn_forked", 0.15);
}

TEST_F(CollectDescendants, ExecOfAStaticProgramLeavesANamedEmptyExperiment) {
  auto c = collect("-F on " + family() + " execstatic:" + program("static_hello"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(descendant_dirs("test.1.er"), (std::vector<std::string>{"_f1.er", "_f1_x1.er"}));
  auto x = open("test.1.er/_f1_x1.er");
  ASSERT_TRUE(x);
  bool warned = false;
  for (const auto& [t, w] : x->log.warnings) warned |= w.find("statically linked") != std::string::npos;
  EXPECT_TRUE(warned);
  EXPECT_TRUE(x->clock.empty());
  auto h = er_print("-header test.1.er/_f1_x1.er");
  EXPECT_EQ(h.status, 0) << h.err;
}

TEST_F(CollectDescendants, ErPrintLoadsDescendantsWithTheFounderOrAlone) {
  ASSERT_EQ(collect("-F on " + family() + " burn:100 fork:150").status, 0);
  auto alone = user_seconds("test.1.er/_f1.er");
  EXPECT_NEAR(seconds_of(alone, "burn_forked"), 0.15, 0.05);
  auto both = er_print("-en_desc on -experiment_list test.1.er");
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_NE(both.out.find("_f1.er"), std::string::npos) << both.out;
}

}  // namespace
}  // namespace erkit::e2e
