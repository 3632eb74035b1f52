#include "model/heap_leaks.h"

#include <gtest/gtest.h>

namespace erkit::model {
namespace {

format::HeapEvent ev(uint32_t op, uint64_t t, uint64_t addr, uint64_t old = 0, uint32_t dur = 0) {
  format::HeapEvent h{};
  h.op = op;
  h.tstamp_ns = t;
  h.address = addr;
  h.old_address = old;
  h.duration_ns = dur;
  h.size = 8;
  return h;
}

TEST(HeapLeaks, FreedBlocksAreNotLeaks) {
  std::vector<format::HeapEvent> v = {ev(format::kHeapMalloc, 10, 0x100), ev(format::kHeapMalloc, 20, 0x200),
                                            ev(format::kHeapFree, 30, 0x100)};
  auto leaked = leaked_allocations(v);
  EXPECT_EQ(leaked, (std::vector<bool>{false, true, false}));
}

// Java objects (address 0: the GC moves them) are allocations, never leaks, and do not disturb
// the malloc blocks' accounting.
TEST(HeapLeaks, JavaObjectsAllocateButNeverLeak) {
  std::vector<format::HeapEvent> v = {ev(format::kHeapJavaAlloc, 10, 0), ev(format::kHeapMalloc, 20, 0x100),
                                      ev(format::kHeapJavaAlloc, 30, 0), ev(format::kHeapJavaSample, 40, 0)};
  EXPECT_TRUE(heap_allocates(v[0]));
  EXPECT_TRUE(heap_allocates(v[3]));  // a sampled Java object as well
  EXPECT_EQ(leaked_allocations(v), (std::vector<bool>{false, true, false, false}));
}

TEST(HeapLeaks, AddressReusedAfterFreeOnAnotherThread) {
  // Thread B frees 0x100 (stamped before its real free), thread A gets 0x100 back (stamped after
  // its real malloc): A's block is live, B's was released.
  std::vector<format::HeapEvent> v = {ev(format::kHeapMalloc, 10, 0x100), ev(format::kHeapFree, 40, 0x100),
                                            ev(format::kHeapMalloc, 41, 0x100)};
  EXPECT_EQ(leaked_allocations(v), (std::vector<bool>{false, false, true}));
}

TEST(HeapLeaks, ReallocReleasesTheOldBlockAtItsStart) {
  // realloc(0x100) -> 0x300 runs from t=50 to t=60; meanwhile another thread's malloc returned
  // the old address 0x100 at t=55. Only the realloc's release at 50 may drop 0x100.
  std::vector<format::HeapEvent> v = {ev(format::kHeapMalloc, 10, 0x100), ev(format::kHeapMalloc, 55, 0x100),
                                            ev(format::kHeapRealloc, 60, 0x300, 0x100, 10)};
  EXPECT_EQ(leaked_allocations(v), (std::vector<bool>{false, true, true}));
}

TEST(HeapLeaks, ReallocInPlaceAndMmap) {
  std::vector<format::HeapEvent> v = {
      ev(format::kHeapMalloc, 10, 0x100), ev(format::kHeapRealloc, 20, 0x100, 0x100, 2),
      ev(format::kHeapMmap, 30, 0x7000), ev(format::kHeapMunmap, 40, 0x7000), ev(format::kHeapMmap, 50, 0x8000)};
  EXPECT_EQ(leaked_allocations(v), (std::vector<bool>{false, true, false, false, true}));
  EXPECT_FALSE(heap_allocates(v[3]));
}

TEST(HeapLeaks, FreeOfUnknownBlockIsIgnored) {
  std::vector<format::HeapEvent> v = {ev(format::kHeapFree, 5, 0x900), ev(format::kHeapMalloc, 10, 0x100)};
  EXPECT_EQ(leaked_allocations(v), (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace erkit::model
