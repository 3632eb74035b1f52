// Golden outputs of header, overview, statistics, objects and the metric listings.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class InfoCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic a;
    a.clock = {"main;work 5", "main;work 2 state=1", "main;helper 3 tid=1001 cpu=1"};
    // Sample points: 45 ms (utime 40 ms), 105 ms (utime 90 ms).
    a.samples = {{45000000, 40000000}, {105000000, 90000000}};
    a.exit_status = 3;
    add(a);
    open();
  }
  // Output with the experiment's temporary path replaced by "EXP".
  std::string run_p(const std::string& cmds) {
    std::string out = run(cmds);
    for (size_t p; (p = out.find(path(0))) != std::string::npos;) out.replace(p, path(0).size(), "EXP");
    return out;
  }
};

TEST_F(InfoCommands, Header) {
  EXPECT_EQ(run_p("header 1"), R"(Experiment: EXP
No errors
No warnings
Experiment started unknown
Target command (64-bit): './synthetic'
Process ID: 1000, Parent PID: 1
Current working directory: /tmp
Collector version: erkit test; Host 'box' (x86_64, Linux 6.1)
  Hardware: 4 CPUs, page size 4096
Data collection parameters:
  Clock-profiling, interval = 10000 microsecs.
Clock samples: 10; unwind failures: 0 (0.0 %); truncated stacks: 0 (0.0 %)
Target exited with status 3
Experiment Ended: 0.100 s
)");
  EXPECT_EQ(run("header 2"), "");
  EXPECT_NE(last_error_.find("header: '2' is not an experiment ID (1-1 or all"), std::string::npos) << last_error_;
}

TEST_F(InfoCommands, Overview) {
  EXPECT_EQ(run_p("overview"), R"(Experiment 1: EXP
Sample  Reason    Start (s)   End (s)   User CPU   Sys. CPU Proc. User Proc. Sys.  Label
======  ========= ========= ========= ========== ========== ========== ==========  =====
     1  start         0.000     0.045      0.040         0.      0.040         0.
     2  periodic      0.045     0.105      0.040      0.020      0.050         0.
)");
  // Only the selected samples.
  std::string sel = run_p("sample_select 2\noverview");
  EXPECT_EQ(sel.substr(sel.find("Experiment 1:")), R"(Experiment 1: EXP
Sample  Reason    Start (s)   End (s)   User CPU   Sys. CPU Proc. User Proc. Sys.  Label
======  ========= ========= ========= ========== ========== ========== ==========  =====
     2  periodic      0.045     0.105      0.040      0.020      0.050         0.
)");
}

TEST_F(InfoCommands, Statistics) {
  EXPECT_EQ(run_p("statistics"), R"(Execution statistics for experiment 1: EXP
         0.105  Process real time (sec.)
         0.090  User CPU time, process accounting (sec.)
         0.000  System CPU time, process accounting (sec.)
         0.080  User CPU Time, clock profile (sec.)
         0.020  System CPU Time, clock profile (sec.)
         0.000  Wait CPU Time, clock profile (sec.)
         0.000  User Lock Time, clock profile (sec.)
         0.000  Text Page Fault Time, clock profile (sec.)
         0.000  Data Page Fault Time, clock profile (sec.)
         0.000  Other Wait Time, clock profile (sec.)
             0  Minor page faults
             0  Major page faults
             0  Voluntary context switches
             0  Involuntary context switches
             0  Input blocks
             0  Output blocks
             0  Max resident set (KB)
             2  Threads
             2  Samples
Clock samples: 10; unwind failures: 0 (0.0 %); truncated stacks: 0 (0.0 %)
)");
  std::string one = run("sample_select 1\nstatistics");
  EXPECT_NE(one.find("         0.045  Process real time (sec.)\n         0.040  User CPU time"), std::string::npos) << one;
}

TEST_F(InfoCommands, MetricListAndObjects) {
  EXPECT_EQ(run("metrics e.%user:i.user\nmetric_list").substr(0, 201), R"(current: e.user:e%user:i.user:name
Current metrics: e.user:e%user:i.user:name
Current Sort Metric: Exclusive User CPU Time ( e.user )
Available metrics:
         Exclusive User CPU Time: e.user e%user
)");
  std::string c = run("cmetric_list");
  EXPECT_NE(c.find("Attributed User CPU Time: a.user a%user\n"), std::string::npos) << c;
  EXPECT_NE(c.find("Current metrics: a.user:a%user:e.user:e%user:i.user:name\n"), std::string::npos) << c;
  std::string d = run("data_metric_list");
  EXPECT_NE(d.find("no data-derived metrics"), std::string::npos) << d;
  EXPECT_EQ(run_p("objects"), R"(<libsynth.so>  EXP.src/libsynth.so
    Build ID: (none)
    No warnings
)");
}

}  // namespace
}  // namespace erkit::erprint
