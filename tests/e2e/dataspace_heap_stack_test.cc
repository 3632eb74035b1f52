// Heap blocks and stack locals as data objects (issue 19): page faults give exact addresses
// on any machine; the program counts its own first touches with mincore(), so every count is
// exact: the faults in each heap block go to its allocation site (collect -H on), the faults in
// a local array to that local, through its function's frame base.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "collect_fixture.h"
#include "dataspace_rows.h"

namespace erkit::e2e {
namespace {

class DataspaceHeapStackTest : public CollectTest {};


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
  EXPECT_EQ(data_row_value(objs.out, "<Heap>"), a + b) << objs.out;
  EXPECT_EQ(data_row_value(objs.out, "{volatile+array:volatile+char buf}"), local) << objs.out;
  EXPECT_EQ(data_row_value(objs.out, "<Scalars>"), -1) << objs.out;  // an array is no scalar

  auto single = er_print("-data_single make_b hs.er");
  ASSERT_EQ(single.status, 0) << single.err;
  EXPECT_NE(single.out.find("heap_block"), std::string::npos) << single.out;

  // data_sort name: <Total> first, then the objects by name; -name reverses.
  auto by_name = er_print("-data_sort name -data_objects hs.er");
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_LT(by_name.out.find("<Heap>.(allocated at make_a"), by_name.out.find("<Heap>.(allocated at make_b"))
      << by_name.out;
  EXPECT_LT(by_name.out.find("<Total>"), by_name.out.find("<Heap>")) << by_name.out;
  // (a word starting with '-' is a command on er_print's command line: from a script instead)
  auto reversed = run("cd " + dir_ + " && printf 'data_sort -name\\ndata_objects\\n' | " + bin("er_print") + " - hs.er");
  ASSERT_EQ(reversed.status, 0) << reversed.err;
  EXPECT_GT(reversed.out.find("<Heap>.(allocated at make_a"), reversed.out.find("<Heap>.(allocated at make_b"))
      << reversed.out;
  EXPECT_LT(reversed.out.find("<Total>"), reversed.out.find("<Heap>")) << reversed.out;
  auto bad = er_print("-data_sort d.no-such-metric -data_objects hs.er");
  EXPECT_NE(bad.err.find("not a data-derived metric of the loaded experiments"), std::string::npos) << bad.err;

  // The counter's metric reaches the exports: the folded stacks of er_convert give touch() the
  // program's faults in the two blocks (and at most the faults on its own code pages).
  auto folded = run("cd " + dir_ + " && " + bin("er_convert") + " -format folded -metrics page-faults -o - hs.er");
  ASSERT_EQ(folded.status, 0) << folded.err;
  std::istringstream in(folded.out);
  std::string line;
  long in_touch = 0;
  while (std::getline(in, line)) {
    auto sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    std::string stack = line.substr(0, sp);
    if (stack.size() >= 5 && stack.compare(stack.size() - 5, 5, "touch") == 0) in_touch += std::stol(line.substr(sp + 1));
  }
  EXPECT_GE(in_touch, a + b) << folded.out;
  EXPECT_LE(in_touch, a + b + 2) << folded.out;
  // ...and er_print's JSON, which the analyzer's adapter reads.
  auto json = er_print("-json -functions hs.er");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find(R"("metric":"page-faults")"), std::string::npos) << json.out.substr(0, 2000);
}

TEST_F(DataspaceHeapStackTest, WithoutTheHeapTraceHeapAddressesAreNotDeterminable) {
  auto c = collect("-o nh.er -h +page-faults,1 " + program("ds_heap_stack"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto objs = er_print("-data_objects nh.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  EXPECT_EQ(objs.out.find("<Heap>"), std::string::npos) << objs.out;
  EXPECT_GT(data_row_value(objs.out, "(Not determinable from the symbolic information: no data object at the address)"), 0)
      << objs.out;
}

}  // namespace
}  // namespace erkit::e2e
