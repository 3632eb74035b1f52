// The compact clock-sample encoding (format/clock_compact.h): every field round-trips exactly,
// extreme values included; a repeated stack costs 16 bytes at the default rates; the decoder
// refuses what does not parse and never reads past a record.
#include "format/clock_compact.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace erkit::format {
namespace {

ClockFields sample(uint64_t t, uint64_t stack, uint32_t tid, int32_t cpu, uint32_t flags, uint64_t user,
                   uint64_t sys = 0) {
  ClockFields f{};
  f.tstamp_ns = t;
  f.stack_id = stack;
  f.tid = tid;
  f.cpu = cpu;
  f.flags = flags;
  f.ns[kMsUser] = user;
  f.ns[kMsSystem] = sys;
  return f;
}

void expect_same(const ClockFields& a, const ClockFields& b) {
  EXPECT_EQ(a.tstamp_ns, b.tstamp_ns);
  EXPECT_EQ(a.stack_id, b.stack_id);
  EXPECT_EQ(a.tid, b.tid);
  EXPECT_EQ(a.cpu, b.cpu);
  EXPECT_EQ(a.flags, b.flags);
  for (uint32_t i = 0; i < kMsCount; ++i) EXPECT_EQ(a.ns[i], b.ns[i]) << i;
}

// Encodes a sequence as one block would hold it, decodes it back in order.
std::vector<ClockFields> round_trip(const std::vector<ClockFields>& in, std::vector<uint32_t>* sizes = nullptr) {
  ClockCompactBase wb{}, rb{};
  std::vector<ClockFields> out;
  for (const auto& f : in) {
    alignas(8) uint8_t buf[kClockCompactMaxSize];
    std::memset(buf, 0xee, sizeof buf);
    uint32_t size = encode_clock_compact(&wb, f, buf);
    EXPECT_EQ(size % 8, 0u);
    EXPECT_LE(size, 112u);
    EXPECT_EQ(record_size(*reinterpret_cast<uint32_t*>(buf)), size);
    EXPECT_EQ(record_kind(*reinterpret_cast<uint32_t*>(buf)), kRecClockCompact);
    if (sizes) sizes->push_back(size);
    ClockFields g{};
    EXPECT_TRUE(decode_clock_compact(&rb, buf, size, &g));
    out.push_back(g);
  }
  return out;
}

TEST(ClockCompact, RepeatedStackAtTheDefaultRatesTakesSixteenBytes) {
  // A thread's samples at -p on (10 ms) and -p hi (1 ms), same stack, User and some System.
  std::vector<ClockFields> in;
  uint64_t t = 1234567;
  for (int i = 0; i < 100; ++i) {
    uint64_t step = i < 50 ? 10000000 : 1000000;
    t += step + uint64_t(i * 37);
    in.push_back(sample(t, 0x9e3779b97f4a7c15ull, 4242, 3, kClockFlagMainThread, step - 20000, 20000));
  }
  std::vector<uint32_t> sizes;
  auto out = round_trip(in, &sizes);
  for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
  // The first record carries tid, stack, cpu and flags; the others only the time and the two states.
  EXPECT_LE(sizes[0], 40u);
  for (size_t i = 1; i < sizes.size(); ++i) EXPECT_EQ(sizes[i], 16u) << i;
  // A new stack costs its 8 bytes: at most 24.
  in.push_back(sample(t + 10000000, 0x1234, 4242, 3, kClockFlagMainThread, 10000000));
  sizes.clear();
  round_trip(in, &sizes);
  EXPECT_LE(sizes.back(), 24u);
}

TEST(ClockCompact, InterleavedThreadsEachKeepTheirOwnBase) {
  // The sampler thread's block: blocked samples of 12 threads in turn (more than the table's
  // 8 slots: tids 1000..1011 share slots 0..3), each thread with its own stack, 20 ms apart.
  std::vector<ClockFields> in;
  for (int round = 0; round < 20; ++round) {
    for (uint32_t t = 0; t < 12; ++t) {
      ClockFields f = sample(uint64_t(round + 1) * 20000000 + t * 1000, 0x5000 + t, 1000 + t, -1,
                             kClockFlagBlockedSample, 0);
      f.ns[kMsOtherWait] = 20000000;
      in.push_back(f);
    }
  }
  std::vector<uint32_t> sizes;
  auto out = round_trip(in, &sizes);
  for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
  // After the first round, threads 1004..1007 (alone in slots 4..7) take 16 bytes: the tid,
  // the state and the time; the others, whose slot another thread took meanwhile, carry
  // their stack again.
  for (size_t i = 12; i < in.size(); ++i) {
    uint32_t t = in[i].tid - 1000;
    if (t >= 4 && t < 8) EXPECT_EQ(sizes[i], 16u) << i;
    else EXPECT_LE(sizes[i], 32u) << i;
  }
}

TEST(ClockCompact, ExtremeValuesRoundTrip) {
  std::vector<ClockFields> in = {
      sample(0, 0, 0, 0, 0, 0),
      sample(~uint64_t(0), ~uint64_t(0), 0xffffffffu, -1, 0xffffffffu, ~uint64_t(0), ~uint64_t(0)),
      sample(5, 1, 1, INT32_MIN, 0, 1),  // time going backwards by 2^64 - 6
      sample(3, 1, 1, INT32_MAX, 0, 1),  // and by 2
      sample(3, 1, 1, INT32_MAX, 0, 0),
  };
  for (uint32_t i = 0; i < kMsCount; ++i) in[1].ns[i] = ~uint64_t(0) - i;
  auto out = round_trip(in);
  for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
}

TEST(ClockCompact, RandomSequencesRoundTrip) {
  std::mt19937_64 rng(24);
  for (int seq = 0; seq < 200; ++seq) {
    std::vector<ClockFields> in;
    uint64_t t = rng() >> (rng() % 64);
    for (int i = 0; i < 50; ++i) {
      ClockFields f{};
      t += rng() >> (rng() % 64);
      f.tstamp_ns = rng() % 5 ? t : rng();
      f.stack_id = rng() % 3 ? (in.empty() ? 7 : in.back().stack_id) : rng();
      f.tid = rng() % 4 ? 100 : uint32_t(rng());
      f.cpu = rng() % 4 ? 1 : int32_t(uint32_t(rng()));
      f.flags = uint32_t(rng() % 32);
      for (auto& v : f.ns) v = rng() % 2 ? 0 : rng() >> (rng() % 64);
      in.push_back(f);
    }
    auto out = round_trip(in);
    for (size_t i = 0; i < in.size(); ++i) expect_same(in[i], out[i]);
  }
}

TEST(ClockCompact, DecoderRefusesWhatDoesNotParse) {
  ClockCompactBase wb{};
  alignas(8) uint8_t buf[kClockCompactMaxSize];
  uint32_t size = encode_clock_compact(&wb, sample(10000000, 99, 7, 1, 0, 10000000), buf);
  ASSERT_EQ(size, 24u);
  ClockFields f{};
  ClockCompactBase rb{};
  ClockCompactBase before = rb;
  auto refused = [&](const uint8_t* rec, uint32_t n) {
    rb = before;
    bool ok = decode_clock_compact(&rb, rec, n, &f);
    if (!ok) {
      EXPECT_EQ(std::memcmp(&rb, &before, sizeof rb), 0) << "the base changed on a refused record";
    }
    return !ok;
  };
  EXPECT_FALSE(refused(buf, size));
  EXPECT_TRUE(refused(buf, 16));  // cut: the stack id and the ns run past the end
  EXPECT_TRUE(refused(buf, 12));  // not a multiple of 8
  uint8_t bad[kClockCompactMaxSize];
  std::memcpy(bad, buf, size);
  bad[4] |= 0x10;  // an unknown presence bit
  EXPECT_TRUE(refused(bad, size));
  std::memcpy(bad, buf, size);
  bad[5] |= 0x80;  // an eighth state
  EXPECT_TRUE(refused(bad, size));
  std::memcpy(bad, buf, size);
  ASSERT_EQ(bad[size - 1], 0) << "expected padding";
  bad[size - 1] = 1;  // padding that is not zero
  EXPECT_TRUE(refused(bad, size));
  // Continuation bytes past 64 bits: a varint too long.
  uint8_t longv[24] = {};
  std::memcpy(longv, buf, 4);
  longv[4] = kClockCompactPresentTid;
  for (int i = 6; i < 24; ++i) longv[i] = 0xff;
  EXPECT_TRUE(refused(longv, 24));
  // Random bodies: refused or decoded, never read past the record (ASan checks the bound).
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    uint32_t n = 8 * uint32_t(1 + rng() % 6);
    std::vector<uint8_t> r(n);
    for (auto& b : r) b = uint8_t(rng());
    if (rng() % 2) r[4] &= 0x0f, r[5] &= 0x7f;
    rb = ClockCompactBase{};
    (void)decode_clock_compact(&rb, r.data(), n, &f);
  }
}

}  // namespace
}  // namespace erkit::format
