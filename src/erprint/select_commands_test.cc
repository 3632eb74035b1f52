// Filters, selections (seed-spec §7.10) and load-object collapse (§7.11) change what the
// reports count; the lists show what is selected.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class SelectCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic a;
    // Thread 1 (tid 1000, CPU 0): 5 units; thread 2 (tid 1001, CPU 1): 3; thread 3 (tid
    // 1002, CPU 2): 2. Events at 10 ms steps: t = 10..50, 60..80, 90..100 ms.
    a.clock = {"main;work;hot 5", "main;spawn;helper 3 tid=1001 cpu=1", "main;spawn;helper;hot 2 tid=1002 cpu=2"};
    // Sample points at 55 ms and 85 ms: samples 1 (..55], 2 (55..85], 3 (85..].
    a.samples = {{55000000, 0}, {85000000, 0}};
    add(a);
    testing::Synthetic b;
    b.pid = 2000;
    b.clock = {"main;hot 4"};
    add(b);
    open();
    run("metrics e.user\nsort name");
  }
  // The exclusive user seconds of each function with any, as "name=value " (functions of
  // the two experiments' separate libraries summed by name).
  std::string values() {
    std::string out = run("functions");
    std::istringstream in(out);
    std::string line;
    std::map<std::string, double> sum;
    int n = 0;
    while (std::getline(in, line))
      if (++n > 5) {
        std::istringstream l(line);
        std::string val, name;
        l >> val >> name;
        sum[name] += std::atof(val.c_str());
      }
    std::string v;
    for (const auto& [name, val] : sum)
      if (val > 0) v += fmt::format("{}={:.3f} ", name, val);
    return v;
  }
};

TEST_F(SelectCommands, Lists) {
  EXPECT_EQ(run("experiment_list"), fmt::format(R"(ID Sel     PID Experiment
== === ======= ==========
1  yes    1000 {}
2  yes    2000 {}
)",
                                                path(0), path(1)));
  EXPECT_EQ(run("sample_list"), R"(Exp Sel       Total
=== ========= =====
  1 1-3           3
  2 1             1
)");
  EXPECT_EQ(run("thread_list"), R"(Exp Sel       Total
=== ========= =====
  1 1-3           3
  2 1             1

Exp Thread     LWP Sel   Events  First (s)   Last (s)
=== ====== ======= === ======== ========== ==========
  1      1    1000 yes        5      0.010      0.050
  1      2    1001 yes        3      0.060      0.080
  1      3    1002 yes        2      0.090      0.100
  2      1    2000 yes        4      0.010      0.040
)");
  EXPECT_EQ(run("cpu_list"), R"(Exp Sel       Total
=== ========= =====
  1 0-2           3
  2 0             1
)");
}

TEST_F(SelectCommands, SelectionsRestrictTheData) {
  EXPECT_EQ(values(), "<Total>=0.140 helper=0.030 hot=0.110 ");
  run("thread_select 1:2-3");
  EXPECT_EQ(values(), "<Total>=0.050 helper=0.030 hot=0.020 ");  // experiment 2 deselected too
  // Each list shows its own target's selection; experiment 2 is out of the experiment list.
  EXPECT_EQ(run("lwp_list").substr(0, 80), R"(Exp Sel       Total
=== ========= =====
  1 1000-1002     3
  2 none          1
)");
  run("thread_select all:all");
  EXPECT_EQ(values(), "<Total>=0.140 helper=0.030 hot=0.110 ");
  run("cpu_select 1:2");  // experiment 2 deselected by the new experiment list
  EXPECT_EQ(values(), "<Total>=0.020 hot=0.020 ");
  run("cpu_select all\nlwp_select 1000,2000");
  EXPECT_EQ(values(), "<Total>=0.090 hot=0.090 ");
  run("lwp_select all\nsample_select 1:2");
  EXPECT_EQ(values(), "<Total>=0.030 helper=0.030 ");
  run("sample_select 1:3+2:1");
  EXPECT_EQ(values(), "<Total>=0.060 hot=0.060 ");
  EXPECT_EQ(run("sample_select 3:1"), "");
  EXPECT_NE(last_error_.find("experiment 3 does not exist"), std::string::npos) << last_error_;
  EXPECT_EQ(values(), "<Total>=0.060 hot=0.060 ");  // unchanged after the error
}

TEST_F(SelectCommands, Filters) {
  run("filters THRID == 2");
  EXPECT_EQ(values(), "<Total>=0.030 helper=0.030 ");
  run("filters LWPID == 2000");
  EXPECT_EQ(values(), "<Total>=0.040 hot=0.040 ");
  run("filters CPUID > 0 && EXPID == 1");
  EXPECT_EQ(values(), "<Total>=0.050 helper=0.030 hot=0.020 ");
  run("filters SAMPLE == 1");
  EXPECT_EQ(values(), "<Total>=0.090 hot=0.090 ");
  run("filters TSTAMP > 55000000 && PID == 1000");
  EXPECT_EQ(values(), "<Total>=0.050 helper=0.030 hot=0.020 ");
  run("filters (FNAME(\"spawn\") SOME IN STACK)");
  EXPECT_EQ(values(), "<Total>=0.050 helper=0.030 hot=0.020 ");
  run("filters LEAF IN FNAME(\"h.*\")");
  EXPECT_EQ(values(), "<Total>=0.140 helper=0.030 hot=0.110 ");
  // Filters and selections combine.
  run("thread_select 1");
  EXPECT_EQ(values(), "<Total>=0.090 hot=0.090 ");
  EXPECT_EQ(run("filters"), "current filter: LEAF IN FNAME(\"h.*\")\n");
  EXPECT_EQ(run("filters 1"), "current filter: 1\n");
  EXPECT_EQ(values(), "<Total>=0.090 hot=0.090 ");
}

TEST_F(SelectCommands, BadFilterKeepsThePreviousOne) {
  run("filters THRID == 2");
  EXPECT_EQ(run("filters THRID = 2"), "");
  EXPECT_NE(last_error_.find("filters: bad expression; filter unchanged\nTHRID = 2\n      ^"), std::string::npos)
      << last_error_;
  EXPECT_EQ(run("filters"), "current filter: THRID == 2\n");
}

TEST_F(SelectCommands, LoadObjectsCollapse) {
  // Each experiment has its own copy of libsynth.so; a base name names both.
  EXPECT_EQ(run("object_list"), R"(Sel Load Object
=== ==================
Yes <libsynth.so>
Yes <libsynth.so>
)");
  EXPECT_EQ(run("object_hide libsynth.so"), R"(Sel Load Object
=== ==================
No  <libsynth.so>
No  <libsynth.so>
)");
  EXPECT_EQ(values(), "<Total>=0.140 <libsynth.so>=0.140 ");
  // Collapsed objects keep their callers-callees relations as one function.
  std::string cc = run("csingle <libsynth.so> 1");  // two objects of that name: N picks
  EXPECT_NE(cc.find("*<libsynth.so>"), std::string::npos) << cc;
  EXPECT_NE(cc.find("<Total>"), std::string::npos) << cc;
  run("object_show all");
  EXPECT_EQ(values(), "<Total>=0.140 helper=0.030 hot=0.110 ");
  run("object_select " + path(0) + ".src/libsynth.so");  // a full path names one
  EXPECT_EQ(values(), "<Total>=0.140 <libsynth.so>=0.040 helper=0.030 hot=0.070 ");
  EXPECT_EQ(run("object_select nosuch.so"), "");
  EXPECT_NE(last_error_.find("no load object named 'nosuch.so'"), std::string::npos) << last_error_;
}

}  // namespace
}  // namespace erkit::erprint

namespace erkit::erprint {
namespace {

// Two experiments with their own libsynth.so: "hot" names two functions (seed-spec §7.1 N rule).
TEST_F(SelectCommands, AmbiguousNamesNeedN) {
  EXPECT_EQ(run("fsingle hot", InputMode::CommandLine), "");
  EXPECT_NE(last_error_.find("fsingle: 'hot' names 2 functions; give N (fsingle hot N), required on the command line"),
            std::string::npos)
      << last_error_;
  EXPECT_NE(last_error_.find("    1) hot (" + path(0) + ".src/libsynth.so)"), std::string::npos) << last_error_;
  EXPECT_NE(last_error_.find("    2) hot (" + path(1) + ".src/libsynth.so)"), std::string::npos) << last_error_;
  // With N: the second one (experiment 2's, 40 ms).
  EXPECT_NE(run("fsingle hot 2").find("Exclusive User CPU Time:  0.040"), std::string::npos);
  EXPECT_EQ(run("fsingle hot 3"), "");
  EXPECT_NE(last_error_.find("N must be 1..2"), std::string::npos) << last_error_;
  // Interactively the candidates are listed and the user is asked.
  std::vector<std::string> asked;
  s_->ask = [&](const std::string& prompt) -> std::optional<std::string> {
    asked.push_back(prompt);
    return "1";
  };
  std::string out = run("csingle hot", InputMode::Interactive);
  EXPECT_EQ(asked, std::vector<std::string>{"Enter selection (1-2, 0 to cancel): "});
  EXPECT_NE(out.find("Available name list:\n    1) hot"), std::string::npos) << out;
  EXPECT_NE(out.find("*hot (libsynth.so)"), std::string::npos) << out;
}

}  // namespace
}  // namespace erkit::erprint
