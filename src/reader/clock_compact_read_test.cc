// Issue 24: the reader decodes compact clock samples (format/clock_compact.h) block by block,
// mixed with the 88-byte records of older writers, and keeps reading profiles written before
// the compact records existed. A record a killed writer left incomplete in the middle of a
// block makes the compact samples after it in that block undecodable: they are counted and
// reported, the other blocks are read in full.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "format/clock_compact.h"
#include "format/host_writer.h"
#include "format/record_descriptors.h"
#include "reader/reader_test_util.h"

namespace erkit::reader {
namespace {

using format::ClockSampleRecord;
using testing::problems_of;

class ClockCompactRead : public testing::TempDirTest {
 protected:
  // Sample i: tid 1000 + i % 3, time i * 1000 + 7, stack i % 5 (of five), User i + 1 ns,
  // System i % 2 ns, cpu i % 4 - 1, flags i % 2.
  ClockSampleRecord expected(uint32_t i) const {
    ClockSampleRecord c{};
    c.tid = 1000 + i % 3;
    c.tstamp_ns = uint64_t(i) * 1000 + 7;
    c.stack_id = stacks_[i % 5];
    c.cpu = int32_t(i % 4) - 1;
    c.flags = i % 2;
    c.ns[format::kMsUser] = i + 1;
    c.ns[format::kMsSystem] = i % 2;
    return c;
  }
  // n samples; every `full_every`-th as an 88-byte record (0: none).
  void write(uint32_t n, uint32_t full_every) {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    for (uint64_t s = 0; s < 5; ++s) stacks_.push_back(w.stack({0x401000 + s * 16}));
    for (uint32_t i = 0; i < n; ++i) {
      if (full_every && i % full_every == 0) w.clock_sample(expected(i));
      else w.clock_sample_compact(expected(i));
    }
  }
  void expect_all(const Experiment& e, uint32_t n) {
    ASSERT_EQ(e.clock.size(), n);
    for (uint32_t i = 0; i < n; ++i) {  // in time order, which is the order written
      ClockSampleRecord want = expected(i);
      const ClockSample& got = e.clock[i];
      ASSERT_EQ(got.tstamp_ns, want.tstamp_ns) << i;
      EXPECT_EQ(got.tid, want.tid) << i;
      EXPECT_EQ(got.stack_id, want.stack_id) << i;
      EXPECT_EQ(got.cpu, want.cpu) << i;
      EXPECT_EQ(got.flags, want.flags) << i;
      for (uint32_t k = 0; k < format::kMsCount; ++k) EXPECT_EQ(got.ns[k], want.ns[k]) << i << " " << k;
    }
  }
  // Offsets of the records of `kind` in the profile, in file order.
  std::vector<size_t> records(uint32_t kind) const {
    std::vector<size_t> out;
    std::ifstream in(file("profile"), std::ios::binary);
    std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (size_t b = format::kHeaderSize; b < data.size(); b += format::kBlockSize) {
      for (size_t off = b; off + 8 <= b + format::kBlockSize;) {
        uint32_t word;
        std::memcpy(&word, data.data() + off, 4);
        if (!word) break;
        if (format::record_kind(word) == kind) out.push_back(off);
        off += format::record_size(word);
      }
    }
    return out;
  }
  std::vector<uint64_t> stacks_;
};

TEST_F(ClockCompactRead, EveryFieldOverSeveralBlocks) {
  const uint32_t n = 20000;  // 16-24 bytes each: about five blocks
  write(n, 0);
  auto e = open();
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(problems_of(e));
  expect_all(e, n);
  auto recs = records(format::kRecClockCompact);
  EXPECT_EQ(recs.size(), n);
  // The file: at most 24 bytes a sample (tid and cpu change every sample here) plus the last block.
  auto bytes = std::filesystem::file_size(file("profile")) - format::kHeaderSize;
  EXPECT_LE(bytes, uint64_t(n) * 24 + format::kBlockSize);
}

TEST_F(ClockCompactRead, MixedWithFullRecords) {
  write(3000, 7);
  auto e = open();
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(problems_of(e));
  expect_all(e, 3000);
}

TEST_F(ClockCompactRead, ProfileWrittenBeforeTheCompactRecordsIsStillRead) {
  write(2000, 1);  // only 88-byte records, under the descriptor of before
  std::vector<char> desc(sizeof(format::FileHeader::descriptor), 0);
  std::memcpy(desc.data(), format::kPreCompactClockDescriptor, std::strlen(format::kPreCompactClockDescriptor));
  patch(file("profile"), offsetof(format::FileHeader, descriptor), desc.data(), desc.size());
  auto e = open();
  EXPECT_TRUE(e.problems.empty()) << ::testing::PrintToString(problems_of(e));
  expect_all(e, 2000);
}

TEST_F(ClockCompactRead, IncompleteRecordMidBlockDropsTheRestOfThatBlockOnly) {
  const uint32_t n = 12000;
  write(n, 0);
  auto recs = records(format::kRecClockCompact);
  ASSERT_EQ(recs.size(), n);
  size_t first_block_end = format::kHeaderSize + format::kBlockSize;
  size_t in_first = 0;
  while (in_first < recs.size() && recs[in_first] < first_block_end) ++in_first;
  ASSERT_GT(in_first, 200u);
  ASSERT_LT(in_first, n);
  // Record 100 of the first block marked incomplete, as a writer killed mid-record leaves it.
  uint32_t word;
  {
    std::ifstream in(file("profile"), std::ios::binary);
    in.seekg(std::streamoff(recs[100]));
    in.read(reinterpret_cast<char*>(&word), 4);
  }
  patch_u32(file("profile"), recs[100], word | format::kIncompleteBit);
  auto e = open();
  size_t lost = in_first - 101;
  ASSERT_EQ(e.clock.size(), n - 1 - lost);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(e.clock[i].tstamp_ns, expected(i).tstamp_ns);
  // The next block decodes from its own start.
  EXPECT_EQ(e.clock[100].tstamp_ns, expected(uint32_t(in_first)).tstamp_ns);
  EXPECT_EQ(e.clock[100].stack_id, expected(uint32_t(in_first)).stack_id);
  EXPECT_EQ(e.clock.back().tstamp_ns, expected(n - 1).tstamp_ns);
  auto p = problems_of(e);
  std::string want = fmt::format("profile: {} compact clock samples after an incomplete or damaged record in their "
                                 "block could not be decoded and were skipped",
                                 lost);
  EXPECT_NE(std::find(p.begin(), p.end(), want), p.end()) << ::testing::PrintToString(p);
}

TEST_F(ClockCompactRead, DamagedCompactBodyIsReportedNotGuessed) {
  write(500, 0);
  auto recs = records(format::kRecClockCompact);
  uint8_t junk = 0x10;  // an unknown presence bit in record 10
  patch(file("profile"), recs[10] + 4, &junk, 1);
  auto e = open();
  ASSERT_EQ(e.clock.size(), 10u);
  auto p = problems_of(e);
  EXPECT_NE(std::find(p.begin(), p.end(), "profile: 1 records of unknown kind or wrong size skipped"), p.end())
      << ::testing::PrintToString(p);
  EXPECT_NE(std::find(p.begin(), p.end(),
                      "profile: 489 compact clock samples after an incomplete or damaged record in their block "
                      "could not be decoded and were skipped"),
            p.end())
      << ::testing::PrintToString(p);
}

}  // namespace
}  // namespace erkit::reader
