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
  EXPECT_EQ(run("gprof"), R"(GOLDEN)");
  EXPECT_TRUE(ok_) << last_error_;
}

}  // namespace
}  // namespace erkit::erprint
