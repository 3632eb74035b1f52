// Issue 18: the collector writes "hwcounters" only where counters were asked for. The reader
// takes both the older experiments, which have a header-only file whatever was recorded, and
// the newer ones without the file; a missing file is a problem only where the log names
// counters (its "hwc" lines) and the collector started.
#include <filesystem>
#include <string>
#include <vector>

#include "format/host_writer.h"
#include "reader/reader_test_util.h"

namespace erkit::reader {
namespace {

using testing::problems_of;

class HwcFileTest : public testing::TempDirTest {
 protected:
  // An experiment whose collector started (a start line with ncpus), one clock sample, and,
  // with `counters`, collect's hwc line for one counter and `events` overflow records.
  void write(bool counters, uint32_t events) {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    w.log_line("0 start pid=7 ppid=1 ncpus=2 pagesize=4096");
    if (counters) w.log_line("0 hwc index=0 name=cycles interval=1000003");
    uint64_t stack = w.stack({0x401000});
    format::ClockSampleRecord c{};
    c.tid = 7;
    c.stack_id = stack;
    c.ns[format::kMsUser] = 1000000;
    w.clock_sample(c);
    for (uint32_t i = 0; i < events; ++i) {
      format::HwcEventRecord h{};
      h.tid = 7;
      h.tstamp_ns = 100 + i;
      h.stack_id = stack;
      h.value = 1000003;
      w.hwc_event(h);
    }
  }
  void remove_hwc_file() { ASSERT_TRUE(std::filesystem::remove(file("hwcounters"))); }
};

TEST_F(HwcFileTest, AnOlderExperimentsHeaderOnlyFileIsReadWithoutProblems) {
  write(false, 0);
  ASSERT_EQ(std::filesystem::file_size(file("hwcounters")), format::kHeaderSize);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.clock.size(), 1u);
  EXPECT_TRUE(e.hwc.empty());
}

TEST_F(HwcFileTest, ANewerExperimentWithoutCountersHasNoFileAndNoProblem) {
  write(false, 0);
  remove_hwc_file();
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.clock.size(), 1u);
  EXPECT_TRUE(e.hwc.empty());
}

TEST_F(HwcFileTest, CountersAreReadFromTheFile) {
  write(true, 3);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  ASSERT_EQ(e.hwc.size(), 3u);
  EXPECT_EQ(e.hwc[2].tstamp_ns, 102u);
  EXPECT_EQ(e.log.hwc_counters.size(), 1u);
}

TEST_F(HwcFileTest, TheFileMissingWhereTheLogNamesCountersIsReported) {
  write(true, 3);
  remove_hwc_file();
  Experiment e = open();
  EXPECT_EQ(problems_of(e), (std::vector<std::string>{
                                "hwcounters: missing, although the log says hardware-counter profiling was on: its "
                                "data is lost"}));
  EXPECT_TRUE(e.hwc.empty());
}

}  // namespace
}  // namespace erkit::reader
