// Stack ids are part of the experiment format: experiments written by older builds name their
// stacks with them, so the function must not change (values computed independently, in Python,
// from the algorithm in stack_id.h).
#include "format/stack_id.h"

#include <gtest/gtest.h>

namespace erkit::format {
namespace {

TEST(StackId, StableAcrossBuilds) {
  const uint64_t pcs[] = {0x401000, 0x401234, 0x7f0000001000};
  EXPECT_EQ(stack_id(pcs, 3, false), 0xaf44ca2eab9c74d2ull);
  EXPECT_EQ(stack_id(pcs, 3, true), 0xaac1d0914b9745fcull);
  static_assert(stack_id(nullptr, 0, false) >= 16);  // usable at compile time, never "no stack"
}

}  // namespace
}  // namespace erkit::format
