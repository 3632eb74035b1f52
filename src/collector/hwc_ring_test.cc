// The overflow handler's ring-buffer reader over synthesized perf rings: samples with data
// addresses as PEBS/IBS/SPE and the page-fault events write them, lost records, other record
// kinds, wrap-around and a record cut by the head.
#include "collector/hwc_ring.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace erkit::collector {
namespace {

struct Ring {
  std::vector<char> data = std::vector<char>(256, 0);
  uint64_t head = 0;
  void put(const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) data[(head + i) & (data.size() - 1)] = static_cast<const char*>(p)[i];
    head += n;
  }
  void sample(uint64_t ip, uint64_t addr, uint64_t period, bool has_addr) {
    perf_event_header h{PERF_RECORD_SAMPLE, 0, uint16_t(sizeof h + (has_addr ? 24 : 16))};
    put(&h, sizeof h);
    put(&ip, 8);
    if (has_addr) put(&addr, 8);
    put(&period, 8);
  }
  void lost(uint64_t n) {
    perf_event_header h{PERF_RECORD_LOST, 0, uint16_t(sizeof h + 16)};
    uint64_t body[2] = {7, n};
    put(&h, sizeof h);
    put(body, sizeof body);
  }
  void other() {
    perf_event_header h{PERF_RECORD_THROTTLE, 0, uint16_t(sizeof h + 24)};
    uint64_t body[3] = {1, 2, 3};
    put(&h, sizeof h);
    put(body, sizeof body);
  }
};

std::vector<HwcRingRecord> walk(Ring& r, uint64_t tail, bool has_addr, uint64_t* new_tail) {
  std::vector<HwcRingRecord> out;
  *new_tail = hwc_ring_walk(r.data.data(), r.data.size(), tail, r.head, has_addr,
                            [&](const HwcRingRecord& x) { out.push_back(x); });
  return out;
}

TEST(HwcRing, PreciseSamplesLostAndOtherRecordsAcrossTheWrap) {
  Ring r;
  r.head = r.data.size() - 20;  // the first record wraps around the end
  uint64_t tail = r.head;
  r.sample(0x401000, 0x7ffd0000a008, 10007, true);  // a PEBS load with its data address
  r.other();
  r.lost(3);
  r.sample(0x401010, 0x601040, 10007, true);
  uint64_t nt = 0;
  auto recs = walk(r, tail, true, &nt);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].type, uint32_t(PERF_RECORD_SAMPLE));
  EXPECT_EQ(recs[0].ip, 0x401000u);
  EXPECT_EQ(recs[0].addr, 0x7ffd0000a008u);
  EXPECT_EQ(recs[0].period, 10007u);
  EXPECT_EQ(recs[1].type, uint32_t(PERF_RECORD_LOST));
  EXPECT_EQ(recs[1].lost, 3u);
  EXPECT_EQ(recs[2].addr, 0x601040u);
  EXPECT_EQ(nt, r.head);
}

TEST(HwcRing, SamplesWithoutAddressAndARecordCutByTheHead) {
  Ring r;
  r.sample(0x401000, 0, 1, false);
  r.sample(0x401008, 0, 1, false);
  uint64_t full = r.head;
  uint64_t nt = 0;
  auto recs = walk(r, 0, false, &nt);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[1].ip, 0x401008u);
  EXPECT_EQ(recs[1].addr, 0u);
  EXPECT_EQ(recs[1].period, 1u);
  // A head inside the second record: only the first is read, the tail stops before the second.
  r.head = full - 4;
  recs = walk(r, 0, false, &nt);
  EXPECT_EQ(recs.size(), 1u);
  EXPECT_EQ(nt, 24u);
}

}  // namespace
}  // namespace erkit::collector
