// Golden output of `gprof` (seed-spec §12) on a synthetic experiment: main calls one and
// two; both call leaf; two also works itself. Layout as GNU gprof -b (binutils 2.40).
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class GprofReport : public testing::SessionFixture {};

TEST_F(GprofReport, FlatProfileAndCallGraph) {
  add_folded({"main;one;leaf 5", "main;two;leaf 10", "main;two 5", "main 1"});
  open();
  // Self time: leaf 15 samples of 10 ms, two 5, main 1 (0.21 s); one has none of its own, so
  // it is in the call graph (0.05 s of children, all leaf's) but not in the flat profile.
  // leaf's parents: one 0.05 and two 0.10, ascending; main's callees descending.
  EXPECT_EQ(run("gprof"), std::string("Flat profile:\n"
                                      "\n"
                                      "Each sample counts as 0.01 seconds.\n"
                                      "  %   cumulative   self              self     total           \n"
                                      " time   seconds   seconds    calls  ms/call  ms/call  name    \n"
                                      " 71.43      0.15     0.15                             leaf\n"
                                      " 23.81      0.20     0.05                             two\n"
                                      "  4.76      0.21     0.01                             main\n"
                                      "\n"
                                      "\t\t\tCall graph\n"
                                      "\n"
                                      "\n"
                                      "granularity: each sample is weighted by the CPU time it measured; 0.21 seconds in all\n"
                                      "\n"
                                      "index % time    self  children    called     name\n"
                                      "                                                 <spontaneous>\n"
                                      "[1]    100.0    0.01    0.20                 main [1]\n"
                                      "                0.05    0.10                     two [3]\n"
                                      "                0.00    0.05                     one [4]\n"
                                      "-----------------------------------------------\n"
                                      "                0.05    0.00                     one [4]\n"
                                      "                0.10    0.00                     two [3]\n"
                                      "[2]     71.4    0.15    0.00                 leaf [2]\n"
                                      "-----------------------------------------------\n"
                                      "                0.05    0.10                     main [1]\n"
                                      "[3]     71.4    0.05    0.10                 two [3]\n"
                                      "                0.10    0.00                     leaf [2]\n"
                                      "-----------------------------------------------\n"
                                      "                0.00    0.05                     main [1]\n"
                                      "[4]     23.8    0.00    0.05                 one [4]\n"
                                      "                0.05    0.00                     leaf [2]\n"
                                      "-----------------------------------------------\n"
                                      "\n"
                                      "Index by function name\n"
                                      "\n"
                                      "   [2] leaf                    [1] main                    [4] one\n"
                                      "   [3] two\n"
                                      ""));
  EXPECT_TRUE(ok_) << last_error_;
}

}  // namespace
}  // namespace erkit::erprint
