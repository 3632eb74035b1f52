// What the reader makes of damaged or foreign data files: a record crossing a block's end,
// a file cut inside its last record, a record a killed writer left incomplete, another format
// version, layout or byte order. Files are written with HostExperimentWriter and then damaged
// at known offsets; whatever is intact must still be read, and each problem reported once.
#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <filesystem>
#include <string>
#include <vector>

#include "format/host_writer.h"
#include "format/record_descriptors.h"
#include "reader/data_file.h"
#include "reader/reader_test_util.h"

namespace erkit::reader {
namespace {

namespace fs = std::filesystem;
using format::ClockSampleRecord;
using format::kBlockSize;
using format::kHeaderSize;
using testing::problems_of;

constexpr size_t kClock = sizeof(ClockSampleRecord);  // 88
constexpr size_t kPerBlock = kBlockSize / kClock;      // 744 clock samples fit in a block

class DataFileTest : public testing::TempDirTest {
 protected:
  // An experiment with `n` clock samples (tstamp i * 10, tid 1000 + i) on one stack.
  void write_samples(uint32_t n) {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    stack_ = w.stack({0x401000});
    for (uint32_t i = 0; i < n; ++i) {
      ClockSampleRecord c{};
      c.tid = 1000 + i;
      c.tstamp_ns = uint64_t(i) * 10;
      c.stack_id = stack_;
      c.ns[format::kMsUser] = 10000000;
      w.clock_sample(c);
    }
  }
  static std::vector<uint32_t> tids(const Experiment& e) {
    std::vector<uint32_t> out;
    for (const auto& c : e.clock) out.push_back(c.tid);
    return out;
  }
  static std::vector<uint32_t> range(uint32_t from, uint32_t to) {
    std::vector<uint32_t> out;
    for (uint32_t i = from; i < to; ++i) out.push_back(1000 + i);
    return out;
  }
  // Offset of clock sample i in the profile file.
  static size_t at(size_t i) { return kHeaderSize + (i / kPerBlock) * kBlockSize + (i % kPerBlock) * kClock; }

  uint64_t stack_ = 0;
};

TEST_F(DataFileTest, ABlockEndingInZerosAndTheNextBlockAreBothRead) {
  write_samples(kPerBlock + 2);  // block 0 full up to its 64 zero bytes, 2 in block 1
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(tids(e), range(0, kPerBlock + 2));
}

TEST_F(DataFileTest, ABlockFilledToItsLastByteIsReadWhole) {
  // Stack records of 4096 bytes: 16 fill block 0 exactly (no terminating zero word).
  std::vector<uint64_t> ids;
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    for (uint64_t s = 0; s < 17; ++s) ids.push_back(w.stack(std::vector<uint64_t>(510, 0x400000 + s)));
  }
  std::vector<std::string> problems;
  uint64_t seen = 0;
  DataFileStats st = read_data_file(
      file("stacks"), format::DataKind::kStacks,
      [&](uint32_t kind, const uint8_t*, uint32_t size) {
        EXPECT_EQ(kind, format::kRecStack);
        EXPECT_EQ(size, 4096u);
        ++seen;
      },
      &problems);
  EXPECT_TRUE(st.present);
  EXPECT_EQ(st.records, 17u);
  EXPECT_EQ(seen, 17u);
  EXPECT_EQ(problems, std::vector<std::string>{});
  Experiment e = open();
  ASSERT_EQ(e.stacks.size(), 17u);
  for (uint64_t s = 0; s < 17; ++s) EXPECT_EQ(e.stacks.at(ids[s]), std::vector<uint64_t>(510, 0x400000 + s)) << s;
}

TEST_F(DataFileTest, ARecordCrossingTheBlockEndIsDamageAndTheNextBlockIsStillRead) {
  write_samples(kPerBlock + 2);
  // Writers never let a record cross a block's end: one that claims to (here in block 0's
  // zero tail) is damage. Everything before it and the whole next block are kept.
  size_t tail = kHeaderSize + kPerBlock * kClock;
  patch_u32(file("profile"), tail, format::make_record_word(format::kRecClockSample, uint32_t(kClock)));
  Experiment e = open();
  EXPECT_EQ(problems_of(e),
            std::vector<std::string>{"profile: corrupt record at offset 69568 (size 88); rest of block 0 skipped"});
  EXPECT_EQ(tids(e), range(0, kPerBlock + 2));
}

TEST_F(DataFileTest, ACorruptSizeSkipsOnlyTheRestOfItsBlock) {
  write_samples(kPerBlock + 2);
  patch_u32(file("profile"), at(10), format::make_record_word(format::kRecClockSample, 13));  // not a multiple of 8
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{fmt::format(
                                "profile: corrupt record at offset {} (size 13); rest of block 0 skipped", at(10))});
  std::vector<uint32_t> want = range(0, 10);
  for (uint32_t t : range(kPerBlock, kPerBlock + 2)) want.push_back(t);
  EXPECT_EQ(tids(e), want);
}

TEST_F(DataFileTest, ATruncatedTailLosesOnlyThePartialRecord) {
  write_samples(10);
  cut(file("profile"), at(9) + 40);  // the 10th record cut after 40 of its 88 bytes
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"profile: file ends inside block 0 (truncated)"});
  EXPECT_EQ(tids(e), range(0, 9));
  EXPECT_EQ(e.clock.back().tstamp_ns, 80u);
  EXPECT_EQ(e.clock.back().ns[format::kMsUser], 10000000u);
}

TEST_F(DataFileTest, ATruncatedTailInALaterBlockKeepsEveryEarlierBlock) {
  write_samples(kPerBlock + 5);
  cut(file("profile"), at(kPerBlock + 4) + 4);  // only the last record's word survives
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"profile: file ends inside block 1 (truncated)"});
  EXPECT_EQ(tids(e), range(0, kPerBlock + 4));
}

TEST_F(DataFileTest, ATailCutAtARecordBoundaryKeepsEveryRecord) {
  write_samples(10);
  cut(file("profile"), at(10));
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"profile: file ends inside block 0 (truncated)"});
  EXPECT_EQ(tids(e), range(0, 10));
}

TEST_F(DataFileTest, AnIncompleteRecordIsCountedAndSkipped) {
  write_samples(10);
  // A writer killed between reserving the record and completing it leaves the bit set.
  patch_u32(file("profile"), at(4),
            format::make_record_word(format::kRecClockSample, uint32_t(kClock)) | format::kIncompleteBit);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.incomplete_records, 1u);
  std::vector<uint32_t> want = range(0, 4);
  for (uint32_t t : range(5, 10)) want.push_back(t);
  EXPECT_EQ(tids(e), want);
}

TEST_F(DataFileTest, AnotherFormatVersionIsRefusedWithAClearMessage) {
  write_samples(3);
  patch_u32(file("profile"), offsetof(format::FileHeader, format_version), 2);
  Experiment e = open();
  EXPECT_EQ(problems_of(e),
            std::vector<std::string>{"profile: format version 2 is not supported (this erkit reads version 1)"});
  EXPECT_TRUE(e.clock.empty());
  EXPECT_EQ(e.stacks.size(), 1u);  // the other files are still read
}

TEST_F(DataFileTest, AnotherLogVersionIsReportedAndReadAsFarAsRecognisable) {
  write_samples(1);
  fs::remove(file("log"));
  append_text(file("log"), "erkit-experiment-log 2\n0 start pid=55 ppid=1\n");
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"log: format version 2 is not supported (this erkit reads "
                                                     "version 1); reading what is recognisable"});
  EXPECT_EQ(e.log.format_version, 2);
  EXPECT_EQ(e.log.pid, 55);
}

TEST_F(DataFileTest, ForeignHeadersAreRefused) {
  write_samples(3);
  patch(file("profile"), 0, "NOTERKIT", 8);
  patch_u32(file("heaptrace"), offsetof(format::FileHeader, endian_check), 0x04030201);
  patch(file("synctrace"), offsetof(format::FileHeader, descriptor) + 2, "sink", 4);  // "5 sync_event" -> "5 sink_event"
  patch_u32(file("iotrace"), offsetof(format::FileHeader, data_kind), uint32_t(format::DataKind::kHeap));
  cut(file("overview"), 100);
  cut(file("hwcounters"), 0);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), (std::vector<std::string>{
                                "profile: not an erkit data file (bad magic)",
                                "overview: truncated header (100 of 4096 bytes)",
                                "heaptrace: written with a different byte order",
                                "synctrace: record layout differs from this erkit's (written by another version?)",
                                "iotrace: header does not match the file's name or layout",
                                "hwcounters: empty (no header)",
                            }));
  EXPECT_TRUE(e.clock.empty());
}

TEST_F(DataFileTest, HeapFilesOfTheEarlierLayoutAreStillRead) {
  // Before the compact heap records every heap event was one 56-byte kind-4 record, under the
  // same format version: such files are still accepted (by their descriptor) and decoded.
  write_samples(1);
  std::vector<char> desc(sizeof(format::FileHeader::descriptor), 0);
  std::memcpy(desc.data(), format::kLegacyHeapDescriptor, std::strlen(format::kLegacyHeapDescriptor));
  patch(file("heaptrace"), offsetof(format::FileHeader, descriptor), desc.data(), desc.size());
  std::vector<char> block(kBlockSize, 0);
  format::LegacyHeapEventRecord m{}, r{}, f{};
  m.word = format::make_record_word(format::kRecLegacyHeapEvent, sizeof m);
  m.tid = 7, m.tstamp_ns = 100, m.stack_id = stack_, m.op = format::kHeapMalloc, m.size = 48, m.address = 0x1000;
  r = m, r.tstamp_ns = 200, r.op = format::kHeapRealloc, r.reserved = 30, r.size = 96, r.address = 0x2000,
  r.old_address = 0x1000;
  f.word = m.word, f.tid = 8, f.tstamp_ns = 300, f.op = format::kHeapFree, f.address = 0x2000;
  std::memcpy(block.data(), &m, sizeof m);
  std::memcpy(block.data() + 56, &r, sizeof r);
  std::memcpy(block.data() + 112, &f, sizeof f);
  { std::ofstream(file("heaptrace"), std::ios::app | std::ios::binary).write(block.data(), long(block.size())); }
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  ASSERT_EQ(e.heap.size(), 3u);
  EXPECT_EQ(e.heap[0].op, format::kHeapMalloc);
  EXPECT_EQ(e.heap[0].size, 48u);
  EXPECT_EQ(e.heap[0].stack_id, stack_);
  EXPECT_EQ(e.heap[1].op, format::kHeapRealloc);
  EXPECT_EQ(e.heap[1].duration_ns, 30u);
  EXPECT_EQ(e.heap[1].old_address, 0x1000u);
  EXPECT_EQ(e.heap[1].address, 0x2000u);
  EXPECT_EQ(e.heap[2].op, format::kHeapFree);
  EXPECT_EQ(e.heap[2].tid, 8u);
  EXPECT_EQ(e.heap[2].address, 0x2000u);
}

TEST_F(DataFileTest, TheFirstCopyOfAStackIdWins) {
  uint64_t first, second;
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    first = w.stack({0x401000, 0x402000});
    second = w.stack({0x403000});
  }
  // Two threads may store the same stack; the reader keeps one copy per id (the first).
  patch_u64(file("stacks"), kHeaderSize + 32 + offsetof(format::StackRecord, id), first);
  Experiment e = open();
  EXPECT_NE(first, second);
  ASSERT_EQ(e.stacks.size(), 1u);
  EXPECT_EQ(e.stacks.at(first), (std::vector<uint64_t>{0x401000, 0x402000}));
}

TEST_F(DataFileTest, EventsWhoseStackIsMissingAreKeptAndReportedOnce) {
  write_samples(4);
  cut(file("stacks"), kHeaderSize);  // the stacks file lost its only block
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"stacks: 4 of 4 events refer to call stacks missing from the "
                                                     "file; they are shown as <Unknown>"});
  EXPECT_EQ(tids(e), range(0, 4));
  EXPECT_EQ(e.clock[0].stack_id, stack_);
}

TEST_F(DataFileTest, ImpossibleValuesAreDamage) {
  write_samples(3);
  patch_u64(file("profile"), at(1) + offsetof(ClockSampleRecord, ns), uint64_t(1) << 60);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{"profile: 1 records with impossible values (damaged) skipped"});
  EXPECT_EQ(tids(e), (std::vector<uint32_t>{1000, 1002}));
}

TEST_F(DataFileTest, NotAnExperiment) {
  EXPECT_EQ(open_experiment(dir_).error, dir_ + ": no such experiment");
  fs::create_directory(dir_);
  EXPECT_EQ(open_experiment(dir_).error, dir_ + ": not an experiment (no 'log' file)");
  EXPECT_FALSE(is_experiment_dir(dir_));
  std::string plain = root_ + "/plain";
  append_text(plain, "x");
  EXPECT_EQ(open_experiment(plain).error, plain + ": not an experiment directory");
  EXPECT_FALSE(open_experiment(plain).experiment.has_value());
}

}  // namespace
}  // namespace erkit::reader
