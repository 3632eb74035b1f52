#include "kernel/perf_ring.h"

#include <gtest/gtest.h>

#include <cstring>

namespace erkit::kernel {
namespace {

template <typename T>
void put(std::vector<uint8_t>& b, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof v);
}

TEST(PerfRing, ParsesASampleWithKernelAndUserChains) {
  uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                PERF_SAMPLE_CALLCHAIN;
  std::vector<uint8_t> b;
  put<uint64_t>(b, 0xffffffff81001010ull);  // ip
  put<uint32_t>(b, 10), put<uint32_t>(b, 11);
  put<uint64_t>(b, 123456789);
  put<uint32_t>(b, 1), put<uint32_t>(b, 0);
  put<uint64_t>(b, 1000000);
  put<uint64_t>(b, 5);
  put<uint64_t>(b, uint64_t(PERF_CONTEXT_KERNEL));
  put<uint64_t>(b, 0xffffffff81001010ull);
  put<uint64_t>(b, 0xffffffff81002000ull);
  put<uint64_t>(b, uint64_t(PERF_CONTEXT_USER));
  put<uint64_t>(b, 0x401000);
  PerfSample s;
  ASSERT_TRUE(parse_sample(b.data(), b.size(), st, &s));
  EXPECT_EQ(s.pid, 10u);
  EXPECT_EQ(s.tid, 11u);
  EXPECT_EQ(s.time, 123456789u);
  EXPECT_EQ(s.cpu, 1u);
  EXPECT_EQ(s.period, 1000000u);
  EXPECT_EQ(s.callchain, (std::vector<uint64_t>{0xffffffff81001010ull, 0xffffffff81002000ull}));
  EXPECT_EQ(s.user_chain, (std::vector<uint64_t>{0x401000}));
  // Truncated: refused, not read past the end.
  EXPECT_FALSE(parse_sample(b.data(), b.size() - 8, st, &s));
}

TEST(PerfRing, ParsesRawTracepointData) {
  uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
  std::vector<uint8_t> b;
  put<uint32_t>(b, 1), put<uint32_t>(b, 2);
  put<uint64_t>(b, 99);
  put<uint32_t>(b, 0), put<uint32_t>(b, 0);
  put<uint32_t>(b, 4);
  put<uint32_t>(b, 0xabcd);
  PerfSample s;
  ASSERT_TRUE(parse_sample(b.data(), b.size(), st, &s));
  ASSERT_EQ(s.raw.size(), 4u);
  uint32_t v;
  std::memcpy(&v, s.raw.data(), 4);
  EXPECT_EQ(v, 0xabcdu);
  b[b.size() - 8] = 200;  // raw size beyond the record
  EXPECT_FALSE(parse_sample(b.data(), b.size(), st, &s));
}

}  // namespace
}  // namespace erkit::kernel
