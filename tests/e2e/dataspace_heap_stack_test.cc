// Heap blocks and stack locals as data objects (issue 19): page faults give exact addresses
// on any machine; the program counts its own first touches with mincore(), so every count is
// exact: the faults in each heap block go to its allocation site (collect -H on), the faults in
// a local array to that local, through its function's frame base.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class DataspaceHeapStackTest : public CollectTest {};

// The first number of the line of `listing` that ends with `name`, -1 if none.
double row_value(const std::string& listing, const std::string& name) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line))
    if (line.size() >= name.size() && line.compare(line.size() - name.size(), name.size(), name) == 0)
      return std::strtod(line.c_str(), nullptr);
  return -1;
}

// The row whose name starts with `prefix`: its value, -1 if none.
double row_value_prefix(const std::string& listing, const std::string& prefix, std::string* name = nullptr) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    auto at = line.find(prefix);
    if (at == std::string::npos) continue;
    if (name) *name = line.substr(at);
    return std::strtod(line.c_str(), nullptr);
  }
  return -1;
}

TEST_F(DataspaceHeapStackTest, FaultsInHeapBlocksGoToTheirAllocationSitesAndInALocalToTheLocal) {
  auto c = collect("-o hs.er -H on -h +page-faults,1 " + program("ds_heap_stack"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("a=(\\d+) b=(\\d+) local=(\\d+)"))) << c.out;
  const int a = std::stoi(m[1]), b = std::stoi(m[2]), local = std::stoi(m[3]);
  ASSERT_GT(a, 8) << c.out;  // most pages of each object are first touched by the program
  ASSERT_GT(b, 4) << c.out;
  ASSERT_GT(local, 4) << c.out;

  auto objs = er_print("-data_objects hs.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  std::string site_a, site_b;
  EXPECT_EQ(row_value_prefix(objs.out, "<Heap>.(allocated at make_a", &site_a), a) << objs.out;
  EXPECT_EQ(row_value_prefix(objs.out, "<Heap>.(allocated at make_b", &site_b), b) << objs.out;
  // The site names the allocator's caller with its source line.
  EXPECT_TRUE(std::regex_match(site_a, std::regex(R"(<Heap>\.\(allocated at make_a, ds_heap_stack\.c:\d+\))"))) << site_a;
  EXPECT_EQ(row_value(objs.out, "<Heap>"), a + b) << objs.out;
  EXPECT_EQ(row_value(objs.out, "{array:volatile+char buf}"), local) << objs.out;

  auto single = er_print("-data_single make_b hs.er");
  ASSERT_EQ(single.status, 0) << single.err;
  EXPECT_NE(single.out.find("heap_block"), std::string::npos) << single.out;
}

TEST_F(DataspaceHeapStackTest, WithoutTheHeapTraceHeapAddressesAreNotDeterminable) {
  auto c = collect("-o nh.er -h +page-faults,1 " + program("ds_heap_stack"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto objs = er_print("-data_objects nh.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  EXPECT_EQ(objs.out.find("<Heap>"), std::string::npos) << objs.out;
  EXPECT_GT(row_value(objs.out, "(Not determinable from the symbolic information: no data object at the address)"), 0)
      << objs.out;
}

}  // namespace
}  // namespace erkit::e2e
