#include "views/trace_format.h"

#include <gtest/gtest.h>

namespace erkit::views {
namespace {

// A sampled Java object stands for n objects of its size and an estimated number of bytes
// (docs/java.md): the histogram counts them all, in the object's size range.
TEST(SizeHistogram, WeightedEntriesCountAsManyBlocks) {
  SizeHistogram h;
  h.add(100);
  h.add(24, 683, 16396);  // one report of a 24-byte object at a 16 KiB interval
  h.add(2000, 0, 0);      // nothing
  EXPECT_EQ(h.count, 684u);
  EXPECT_EQ(h.bytes, 100u + 16396u);
  EXPECT_EQ(h.min(), 24u);
  EXPECT_EQ(h.max, 100u);
  ASSERT_FALSE(h.buckets.empty());
  EXPECT_EQ(h.buckets[0], 684u);  // 0 B - 1 KiB
  SizeHistogram g;
  g.add(8, 3);  // bytes not given: n * size
  EXPECT_EQ(g.bytes, 24u);
}

}  // namespace
}  // namespace erkit::views
