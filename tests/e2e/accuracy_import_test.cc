// End-to-end test of issue 15 item 9: an experiment imported from a real perf recording has
// the header fields perf's own header gives (host, OS, architecture, CPUs, start time) instead
// of blanks, and says "unknown" for what perf does not record (the working directory).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "e2e_util.h"
#include "reader/experiment.h"

namespace erkit::e2e {
namespace {
namespace fs = std::filesystem;

class AccuracyImport : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("accuracy_import"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  std::string dir_;
};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST_F(AccuracyImport, ImportedExperimentsHeaderHasPerfsRunFields) {
  const int64_t before = now_ns();
  auto rec = in_dir("perf record -q -e cpu-clock -o perf.data " + program("work_ratio") + " 20000000");
  if (rec.status != 0) GTEST_SKIP() << "perf record failed: " << rec.err;
  const int64_t after = now_ns();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (const std::string& how : {std::string(bin("er_import") + " -o data.er perf.data"),
                                 "perf script --header -i perf.data 2>/dev/null | " + bin("er_import") + " -o text.er -"}) {
    auto r = in_dir(how);
    ASSERT_EQ(r.status, 0) << how << "\n" << r.err;
  }
  for (const char* exp : {"data.er", "text.er"}) {
    auto h = in_dir(bin("er_print") + " -header " + exp);
    ASSERT_EQ(h.status, 0) << h.err;
    // Before: "Host '' (, Linux )", "Hardware: 0 CPUs", "Experiment started unknown".
    EXPECT_NE(h.out.find(std::string("Host '") + host + "'"), std::string::npos) << h.out;
    EXPECT_NE(h.out.find(fmt::format("Hardware: {} CPUs", cpus)), std::string::npos) << h.out;
    EXPECT_EQ(h.out.find("Experiment started unknown"), std::string::npos) << h.out;
    EXPECT_NE(h.out.find("Current working directory: unknown"), std::string::npos) << h.out;
    auto e = reader::open_experiment(dir_ + "/" + exp);
    ASSERT_TRUE(e.experiment) << e.error;
    // perf gives the start to the second, in local time.
    EXPECT_GE(e.experiment->log.realtime_start_ns, before - 1000000000ll) << h.out;
    EXPECT_LE(e.experiment->log.realtime_start_ns, after + 1000000000ll) << h.out;
  }
}

}  // namespace
}  // namespace erkit::e2e
