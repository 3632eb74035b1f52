#include "kernel/privileges.h"

#include <gtest/gtest.h>

namespace erkit::kernel {
namespace {

const char* kAllCaps = "Name:\tx\nCapEff:\t000001ffffffffff\n";
const char* kNoCaps = "Name:\tx\nCapEff:\t0000000000000000\n";
const char* kPerfmonSyslog = "CapEff:\t0000004400000000\n";  // bits 38 and 34

TEST(Privileges, RootWithCapabilitiesHasEverything) {
  Privileges p = privileges_from(kAllCaps, 0, 2, 1);
  EXPECT_TRUE(p.system_wide());
  EXPECT_TRUE(p.kernel_symbols());
  EXPECT_TRUE(p.missing(true).empty());
}

TEST(Privileges, CapPerfmonAndSyslogSuffice) {
  Privileges p = privileges_from(kPerfmonSyslog, 1000, 2, 1);
  EXPECT_TRUE(p.cap_perfmon);
  EXPECT_TRUE(p.cap_syslog);
  EXPECT_TRUE(p.missing(true).empty());
}

TEST(Privileges, ParanoidZeroWithKptrZeroSuffices) {
  Privileges p = privileges_from(kNoCaps, 1000, 0, 0);
  EXPECT_TRUE(p.system_wide());
  EXPECT_TRUE(p.kernel_symbols());
  EXPECT_TRUE(p.missing(true).empty());
}

TEST(Privileges, UnprivilegedUserIsToldExactlyWhatIsMissing) {
  Privileges p = privileges_from(kNoCaps, 1000, 2, 1);
  auto m = p.missing(true);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NE(m[0].find("perf_event_paranoid <= 0 (now 2)"), std::string::npos) << m[0];
  EXPECT_NE(m[1].find("kptr_restrict is 1"), std::string::npos) << m[1];
  EXPECT_NE(m[1].find("CAP_SYSLOG"), std::string::npos) << m[1];
}

TEST(Privileges, KptrRestrictTwoHidesFromEveryone) {
  Privileges p = privileges_from(kAllCaps, 0, -1, 2);
  EXPECT_FALSE(p.kernel_symbols());
  auto m = p.missing(true);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_NE(m[0].find("from everyone"), std::string::npos);
}

TEST(Privileges, KptrZeroStillHidesFromAParanoidUserWithoutCapSyslog) {
  Privileges p = privileges_from(kNoCaps, 1000, 2, 0);
  EXPECT_FALSE(p.kernel_symbols());
  auto m = p.missing(false);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NE(m[1].find("perf_event_paranoid is 2 (> 1)"), std::string::npos) << m[1];
}

}  // namespace
}  // namespace erkit::kernel
