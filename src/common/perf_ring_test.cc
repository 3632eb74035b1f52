#include "common/perf_ring.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace erkit::common {
namespace {

// A ring laid out as the kernel maps it: one metadata page, then a data area of 64 bytes.
struct FakeRing {
  static constexpr size_t kPage = 4096, kData = 64;
  std::vector<uint8_t> mem = std::vector<uint8_t>(kPage + kData);
  perf_event_mmap_page* meta() { return reinterpret_cast<perf_event_mmap_page*>(mem.data()); }
  // Writes a record at the head (wrapping at the data area's end) and advances the head.
  void put(uint32_t type, uint16_t misc, const std::vector<uint8_t>& payload) {
    perf_event_header h{type, misc, uint16_t(sizeof h + payload.size())};
    std::vector<uint8_t> rec(h.size);
    std::memcpy(rec.data(), &h, sizeof h);
    std::memcpy(rec.data() + sizeof h, payload.data(), payload.size());
    uint64_t head = meta()->data_head;
    for (size_t i = 0; i < rec.size(); ++i) mem[kPage + (head + i) % kData] = rec[i];
    meta()->data_head = head + rec.size();
  }
  uint64_t drain(std::vector<std::vector<uint8_t>>& got, std::vector<uint16_t>& miscs) {
    std::vector<uint8_t> scratch;
    return drain_perf_ring(mem.data(), mem.size(), kData, scratch, [&](uint16_t misc, const uint8_t* p, size_t n) {
      miscs.push_back(misc);
      got.emplace_back(p, p + n);
    });
  }
};

std::vector<uint8_t> bytes(uint8_t first, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(first + i);
  return v;
}

TEST(PerfRing, SamplesInOrderAcrossTheWrapAndLostRecordsCounted) {
  FakeRing r;
  // Start near the end so the second sample wraps the data area.
  r.meta()->data_head = r.meta()->data_tail = 40;
  r.put(PERF_RECORD_SAMPLE, 1, bytes(10, 8));   // 40..55
  r.put(PERF_RECORD_SAMPLE, 2, bytes(50, 16));  // 56..79: wraps
  std::vector<uint8_t> lost(16, 0);
  lost[8] = 7;                                   // id, then the count of lost records
  r.put(PERF_RECORD_LOST, 0, lost);
  std::vector<std::vector<uint8_t>> got;
  std::vector<uint16_t> miscs;
  EXPECT_EQ(r.drain(got, miscs), 7u);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], bytes(10, 8));
  EXPECT_EQ(got[1], bytes(50, 16));
  EXPECT_EQ(miscs, (std::vector<uint16_t>{1, 2}));
  EXPECT_EQ(r.meta()->data_tail, r.meta()->data_head);
}

TEST(PerfRing, AnIncompleteRecordWaitsForTheRest) {
  FakeRing r;
  r.put(PERF_RECORD_SAMPLE, 0, bytes(1, 8));
  uint64_t full = r.meta()->data_head;
  r.put(PERF_RECORD_SAMPLE, 0, bytes(2, 8));
  r.meta()->data_head -= 4;  // the kernel has not finished writing the second one
  std::vector<std::vector<uint8_t>> got;
  std::vector<uint16_t> miscs;
  EXPECT_EQ(r.drain(got, miscs), 0u);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(r.meta()->data_tail, full);
  r.meta()->data_head += 4;
  got.clear();
  r.drain(got, miscs);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], bytes(2, 8));
}

}  // namespace
}  // namespace erkit::common
