// Heap blocks live at an event's time, from a synthesized heap trace.
#include "dataspace/heap_blocks.h"

#include <gtest/gtest.h>

namespace erkit::dataspace {
namespace {

format::HeapEvent ev(uint32_t op, uint64_t t, uint64_t addr, uint64_t size, uint64_t stack, uint64_t old = 0) {
  format::HeapEvent h{};
  h.op = op;
  h.tstamp_ns = t;
  h.address = addr;
  h.size = size;
  h.stack_id = stack;
  h.old_address = old;
  return h;
}

TEST(HeapBlocks, AnAddressBelongsToTheBlockLiveAtItsTime) {
  std::vector<format::HeapEvent> heap = {
      ev(format::kHeapMalloc, 10, 0x1000, 0x100, 1),
      ev(format::kHeapFree, 20, 0x1000, 0, 0),
      ev(format::kHeapMalloc, 30, 0x1000, 0x80, 2),         // the same address, another site
      ev(format::kHeapRealloc, 40, 0x5000, 0x200, 3, 0x1000),  // moves it
      ev(format::kHeapMmap, 50, 0x100000, 0x10000, 4),
      ev(format::kHeapMunmap, 60, 0x100000, 0x10000, 0),
  };
  std::vector<HeapQuery> q = {
      {15, 0x10ff, 0},    // first block, last byte
      {15, 0x1100, 1},    // just past it
      {25, 0x1000, 2},    // freed
      {35, 0x1010, 3},    // second block
      {35, 0x1090, 4},    // past the smaller second block
      {45, 0x1010, 5},    // realloc freed the old one
      {45, 0x51ff, 6},    // the new one
      {55, 0x10fff0, 7},  // the mapping
      {65, 0x100000, 8},  // unmapped
      {5, 0x1000, 9},     // before any allocation
  };
  auto hits = find_heap_blocks(heap, q);
  std::map<size_t, uint64_t> stack_of;
  for (const auto& h : hits) stack_of[h.event] = h.stack_id;
  EXPECT_EQ(stack_of, (std::map<size_t, uint64_t>{{0, 1}, {3, 2}, {6, 3}, {7, 4}}));
  for (const auto& h : hits)
    if (h.event == 6) {
      EXPECT_EQ(h.block, 0x5000u);
      EXPECT_EQ(h.size, 0x200u);
      EXPECT_EQ(h.op, uint32_t(format::kHeapRealloc));
    }
}

TEST(HeapBlocks, NoHeapTraceFindsNothing) {
  EXPECT_TRUE(find_heap_blocks({}, {{1, 0x1000, 0}}).empty());
}

}  // namespace
}  // namespace erkit::dataspace
