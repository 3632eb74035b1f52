// Issue 18: which data files collect's experiment holds. "hwcounters" is written only where
// counters are asked for (-h); the other kinds' files are created whatever is recorded, and the
// reader finds nothing amiss in either experiment (src/reader/hwc_file_test.cc: older
// experiments with a header-only file).
#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class CollectFiles : public CollectTest {
 protected:
  void expect_readable(const std::string& experiment) {
    auto e = open(experiment);
    ASSERT_TRUE(e);
    for (const auto& p : e->problems) ADD_FAILURE() << experiment << ": " << p.file << ": " << p.message;
    EXPECT_GT(e->log.ncpus, 0) << "the collector did not start";
  }
};

TEST_F(CollectFiles, TheCountersFileIsWrittenOnlyWithCounters) {
  auto plain = collect("-o plain.er " + program("ds_first_touch"));
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  for (const char* f : {"stacks", "profile", "overview", "heaptrace", "synctrace", "iotrace", "mpitrace"})
    EXPECT_TRUE(exists(std::string("plain.er/") + f)) << f;
  EXPECT_FALSE(exists("plain.er/hwcounters"));
  expect_readable("plain.er");

  // A software event, so any machine takes it; the file is there even where perf refuses.
  auto hw = collect("-o hw.er -h page-faults,1 " + program("ds_first_touch"));
  ASSERT_EQ(hw.status, 0) << hw.out << hw.err;
  EXPECT_TRUE(exists("hw.er/hwcounters"));
}

}  // namespace
}  // namespace erkit::e2e
