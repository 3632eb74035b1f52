// Stack locals of callers' frames as data objects (issue 19): ds_caller_local first-touches a
// local array of its caller (one frame up) and of its caller's caller (two frames up); the
// program counts its own first touches with mincore(), so each count is exact. The callers'
// frame bases come from their CFI alone, from the registers of the faulting context.
// Also: data_sort with no argument prints the sort the data lists use.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "collect_fixture.h"
#include "dataspace_rows.h"

namespace erkit::e2e {
namespace {

class DataspaceCallersTest : public CollectTest {};


TEST_F(DataspaceCallersTest, FaultsInACallersLocalGoToThatLocal) {
  auto c = collect("-o cl.er -h +page-faults,1 " + program("ds_caller_local"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("far=(\\d+) near=(\\d+)"))) << c.out;
  const int far = std::stoi(m[1]), near = std::stoi(m[2]);
  ASSERT_GT(far, 0) << c.out;  // most pages of each array are first touched by the program (9, 25 here)
  ASSERT_GT(near, 0) << c.out;

  auto objs = er_print("-data_objects cl.er");
  ASSERT_EQ(objs.status, 0) << objs.err;
  EXPECT_EQ(data_row_value(objs.out, "{volatile+array:volatile+char near_buf}"), near) << objs.out;  // one frame up
  EXPECT_EQ(data_row_value(objs.out, "{volatile+array:volatile+char far_buf}"), far) << objs.out;    // two frames up

  // data_sort with no argument: the sort the lists use (the first metric shown by default).
  auto sort = er_print("-data_sort cl.er");
  ASSERT_EQ(sort.status, 0) << sort.err;
  EXPECT_EQ(sort.out, "current data_sort: d+page-faults\n");
  auto by_name = run("cd " + dir_ + " && printf 'data_sort -name\\ndata_sort\\ndata_metrics\\n' | " + bin("er_print") +
                     " - cl.er");
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_EQ(by_name.out,
            "data_sort: -name\ncurrent data_sort: -name\ncurrent data_metrics: d+page-faults:d%page-faults:name\n");
}

}  // namespace
}  // namespace erkit::e2e
