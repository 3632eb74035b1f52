// Hardware-counter and dataspace profiling end to end (issue 19): software counters with exact
// fault addresses, clock profiling with decoded data addresses, data objects, data layout and
// memory objects over purpose-built programs of known data layout.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class DataspaceTest : public CollectTest {};

// The first number of the line that ends with `name` in a dataspace listing, -1 if none.
double value_of(const std::string& listing, const std::string& name) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < name.size() || line.compare(line.size() - name.size(), name.size(), name) != 0) continue;
    return std::strtod(line.c_str(), nullptr);
  }
  return -1;
}

double member_value(const std::string& layout, const std::string& member) {
  std::istringstream in(layout);
  std::string line;
  while (std::getline(in, line))
    if (line.find(member + "   +") != std::string::npos) return std::strtod(line.c_str(), nullptr);
  return -1;
}

TEST_F(DataspaceTest, PageFaultsOfAFirstTouchGoToTheArrayAndItsMembers) {
  auto c = collect("-o pf.er -h +page-faults,1 " + program("ds_first_touch"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("heads=(\\d+) mids=(\\d+) .* base=0x([0-9a-f]+)"))) << c.out;
  const int heads = std::stoi(m[1]), mids = std::stoi(m[2]);
  const uint64_t base = std::stoull(m[3], nullptr, 16);

  auto objs = er_print("-data_objects pf.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  // Every first touch of a page of g_recs is one fault there, exactly.
  EXPECT_EQ(value_of(objs.out, "{array:structure:rec_t g_recs}"), heads + mids) << objs.out;
  EXPECT_EQ(value_of(objs.out, "{structure:rec_t -}"), heads + mids) << objs.out;
  EXPECT_GE(value_of(objs.out, "<Total>"), heads + mids);

  auto layout = er_print("-data_layout pf.er");
  ASSERT_EQ(layout.status, 0) << layout.err;
  EXPECT_EQ(member_value(layout.out, "{structure:rec_t}.{long_int head}"), heads) << layout.out;
  EXPECT_EQ(member_value(layout.out, "{structure:rec_t}.{long_int mid}"), mids) << layout.out;
  EXPECT_EQ(member_value(layout.out, "{structure:rec_t}.{array:char pad1}"), 0) << layout.out;
  EXPECT_NE(layout.out.find("{long_int mid}   +4096.8 [block 128: 0-7]"), std::string::npos) << layout.out;

  // memobj Vpage_4K: each page of g_recs that was touched, with one fault.
  auto pages = er_print("-memobj Vpage_4K pf.er");
  ASSERT_EQ(pages.status, 0) << pages.err;
  std::set<uint64_t> want;
  for (int i = 0; i < heads; ++i) want.insert((base >> 12) + 2 * uint64_t(i));
  for (int i = 0; i < mids; ++i) want.insert((base >> 12) + 2 * uint64_t(i) + 1);
  for (uint64_t p : want) {
    std::string row = fmt::format("Vpage_4K:0x{:x}", p);
    EXPECT_EQ(value_of(pages.out, row), 1) << row << "\n" << pages.out;
  }
  // The type name works as a command; index objects over threads.
  auto threads = er_print("-Threads pf.er");
  EXPECT_EQ(threads.status, 0) << threads.err;
  EXPECT_NE(threads.out.find("Objects of type Threads"), std::string::npos) << threads.out;
}

TEST_F(DataspaceTest, ClockProfilingWithDecodedAddressesSplitsTimeByTheWorkOnEachArray) {
  auto c = collect("-o st.er -p hi,+ " + program("ds_stride") + " 60000");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto objs = er_print("-data_objects st.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  double a = value_of(objs.out, "{array:double g_a}"), b = value_of(objs.out, "{array:double g_b}");
  ASSERT_GT(a, 0) << objs.out;
  ASSERT_GT(b, 0) << objs.out;
  // Same code over both arrays, three times the rounds on g_b: 1:3 within 10 %.
  EXPECT_NEAR(b / a, 3.0, 0.3) << objs.out;
  // Decoded addresses: most samples of the loop land on its memory instructions.
  double total = value_of(objs.out, "<Total>");
  EXPECT_GT((a + b) / total, 0.5) << objs.out;
}

TEST_F(DataspaceTest, CollectListsTheCountersThisMachineOffers) {
  auto c = collect("");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("Well known HW counters available for profiling:"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("Raw HW counters available for profiling:"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("  page-faults,1 ('Page Faults'; load-store events)"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("  context-switches,1 ('Context Switches'; events)"), std::string::npos) << c.out;
}

TEST_F(DataspaceTest, HardwareCountersRecordOrAreRefusedWithTheReason) {
  auto c = collect("-o hw.er -h cycles,+dcm " + program("ds_first_touch"));
  if (c.status != 0) {
    EXPECT_NE(c.err.find("cannot count cycles"), std::string::npos) << c.err;
    GTEST_SKIP() << "hardware counters are not available here: " << c.err;
  }
  auto objs = er_print("-data_objects hw.er");
  EXPECT_EQ(objs.status, 0) << objs.err;
}

TEST_F(DataspaceTest, BadCounterSpecificationsAreRefused) {
  auto c = collect("-h no-such-counter " + program("ds_first_touch"));
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("unknown counter 'no-such-counter'"), std::string::npos) << c.err;
  c = collect("-h page-faults,0 " + program("ds_first_touch"));
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("bad interval '0'"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace erkit::e2e
