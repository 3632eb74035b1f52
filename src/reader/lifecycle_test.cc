// The JIT map a killed process left in /tmp (reader/lifecycle.h): /tmp is shared and the pid
// comes from the experiment's log, so only a regular file of the experiment's owner with a
// single name is read, never through a link.
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/host_writer.h"
#include "reader/reader_test_util.h"

namespace erkit::reader {
namespace {

namespace fs = std::filesystem;

class JitMapLeftInTmp : public testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    {
      format::HostExperimentWriter w(dir_);
      ASSERT_TRUE(w.ok()) << w.error();
    }
    // A killed run (no collector exit line) of a process whose pid no real process has.
    timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t start = int64_t(now.tv_sec - 5) * 1000000000ll;
    append_text(file("log"), "0 start pid=" + std::to_string(kPid) + " ppid=1 realtime_ns=" + std::to_string(start) +
                                 " monotonic_ns=1\n");
    unlink(tmp_map_.c_str());
  }
  void TearDown() override {
    unlink(tmp_map_.c_str());
    TempDirTest::TearDown();
  }
  static bool has_jit_function(const Experiment& e, const std::string& name) {
    for (const auto& f : e.dynamic_functions)
      if (f.from_jit_map && f.name == name) return true;
    return false;
  }
  static constexpr int kPid = 4194301;  // just under the largest pid_max
  std::string tmp_map_ = "/tmp/perf-" + std::to_string(kPid) + ".map";
};

TEST_F(JitMapLeftInTmp, AFileOfTheOwnerIsReadAndSavedWithTheExperimentsMode) {
  std::ofstream(tmp_map_) << "7f0000001000 40 jit_fn\n";
  Experiment e = open();
  EXPECT_TRUE(has_jit_function(e, "jit_fn"));
  struct stat st, dir;
  ASSERT_EQ(lstat(file("jit.map").c_str(), &st), 0);
  ASSERT_EQ(stat(dir_.c_str(), &dir), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, dir.st_mode & 0644);
}

TEST_F(JitMapLeftInTmp, ALinkOrAHardLinkIsNotRead) {
  std::string target = root_ + "/target.map";
  std::ofstream(target) << "7f0000001000 40 linked_fn\n";
  ASSERT_EQ(symlink(target.c_str(), tmp_map_.c_str()), 0);
  Experiment e = open();
  EXPECT_FALSE(has_jit_function(e, "linked_fn"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(file("jit.map"))));
  unlink(tmp_map_.c_str());
  if (link(target.c_str(), tmp_map_.c_str()) != 0) GTEST_SKIP() << "/tmp is another file system";
  e = open();
  EXPECT_FALSE(has_jit_function(e, "linked_fn"));
}

TEST_F(JitMapLeftInTmp, TheExperimentsOwnCopyIsNotReadThroughALink) {
  std::string target = root_ + "/target.map";
  std::ofstream(target) << "7f0000001000 40 linked_fn\n";
  ASSERT_EQ(symlink(target.c_str(), file("jit.map").c_str()), 0);
  Experiment e = open();
  EXPECT_FALSE(has_jit_function(e, "linked_fn"));
}

}  // namespace
}  // namespace erkit::reader
