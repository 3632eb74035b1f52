// Golden outputs of the function-list and callers-callees commands on synthetic experiments.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class FunctionCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    // The manual's worked example (seed-spec §6.1), 10 ms per unit.
    add_folded({"main 2", "main;A;C 2", "main;A;C;E 4", "main;A;C;F 4", "main;B 5", "main;B;C 3", "main;B;C;E 6",
                "main;B;C;F 6"});
    open();
  }
};

TEST_F(FunctionCommands, Functions) {
  EXPECT_EQ(run("functions"), "");
}

}  // namespace
}  // namespace erkit::erprint
