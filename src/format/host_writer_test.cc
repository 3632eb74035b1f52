// The on-disk bytes of experiment format v1 as HostExperimentWriter lays them out, read back
// without the reader (src/reader has its own round-trip tests): file headers, record words,
// field offsets against the self-description, stack de-duplication, block packing.
#include "format/host_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "format/record_descriptors.h"

namespace erkit::format {
namespace {

namespace fs = std::filesystem;

class HostWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/erkit-format-test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    dir_ = root_ + "/t.er";
  }
  void TearDown() override { fs::remove_all(root_); }

  std::vector<uint8_t> bytes(const char* file) const {
    std::ifstream in(dir_ + "/" + file, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  static uint32_t u32(const std::vector<uint8_t>& b, size_t off) {
    uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
  }
  static uint64_t u64(const std::vector<uint8_t>& b, size_t off) {
    uint64_t v;
    std::memcpy(&v, b.data() + off, 8);
    return v;
  }

  std::string root_, dir_;
};

TEST_F(HostWriterTest, EveryDataFileHasAVersionedSelfDescribingHeader) {
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
  }
  for (uint32_t k = 0; k < uint32_t(DataKind::kCount); ++k) {
    SCOPED_TRACE(kDataFileNames[k]);
    auto b = bytes(kDataFileNames[k]);
    ASSERT_EQ(b.size(), kHeaderSize);  // no records: the header alone
    FileHeader h;
    std::memcpy(&h, b.data(), sizeof h);
    EXPECT_EQ(std::string(h.magic, 8), "ERKITDAT");
    EXPECT_EQ(h.format_version, 1u);
    EXPECT_EQ(h.header_size, 4096u);
    EXPECT_EQ(h.block_size, 65536u);
    EXPECT_EQ(h.data_kind, k);
    EXPECT_EQ(h.endian_check, 0x01020304u);
    EXPECT_EQ(std::string(h.descriptor), record_descriptor_text(DataKind(k)));
  }
  std::ifstream log(dir_ + "/log"), map(dir_ + "/map");
  std::string line;
  ASSERT_TRUE(std::getline(log, line));
  EXPECT_EQ(line, "erkit-experiment-log 1");
  ASSERT_TRUE(std::getline(map, line));
  EXPECT_EQ(line, "erkit-experiment-map 1");
}

TEST_F(HostWriterTest, RefusesAnExistingDirectory) {
  fs::create_directory(dir_);
  HostExperimentWriter w(dir_);
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot create " + dir_ + ": File exists");
}

// Each "name:type@offset" of the self-description must be where the compiled struct has it:
// the reader trusts a file whose descriptor equals its own, so the two must never drift apart.
std::map<std::string, size_t> descriptor_offsets(const char* text) {
  std::map<std::string, size_t> out;
  std::istringstream in(text);
  std::string tok;
  in >> tok >> tok >> tok;  // kind id, name, size
  while (in >> tok) {
    size_t colon = tok.find(':'), at = tok.find('@');
    if (colon == std::string::npos || at == std::string::npos) continue;
    out[tok.substr(0, colon)] = std::stoul(tok.substr(at + 1));
  }
  return out;
}

TEST(RecordDescriptors, OffsetsMatchTheRecordStructs) {
  using M = std::map<std::string, size_t>;
  EXPECT_EQ(descriptor_offsets(kStackDescriptor),
            (M{{"word", 0}, {"nframes", offsetof(StackRecord, nframes)}, {"id", offsetof(StackRecord, id)},
               {"pcs", offsetof(StackRecord, pcs)}}));
  // The profile: clock samples (the layout older readers know, first), then the OpenMP records.
  ASSERT_EQ(std::string(kClockDescriptor).rfind(kLegacyClockDescriptor, 0), 0u);
  {
    std::istringstream lines(std::string(kClockDescriptor).substr(std::string(kLegacyClockDescriptor).size()));
    std::string omp_sample, region;
    std::getline(lines, omp_sample);
    std::getline(lines, region);
    EXPECT_EQ(omp_sample.rfind(std::to_string(kRecClockSampleOmp) + " clock_sample_omp " +
                                   std::to_string(sizeof(ClockSampleOmpRecord)) + " ", 0), 0u);
    EXPECT_EQ(region.rfind(std::to_string(kRecOmpRegion) + " omp_region " + std::to_string(sizeof(OmpRegionRecord)) + " ", 0),
              0u);
    M sample{{"word", 0},
             {"tid", offsetof(ClockSampleOmpRecord, tid)},
             {"tstamp_ns", offsetof(ClockSampleOmpRecord, tstamp_ns)},
             {"stack_id", offsetof(ClockSampleOmpRecord, stack_id)},
             {"cpu", offsetof(ClockSampleOmpRecord, cpu)},
             {"flags", offsetof(ClockSampleOmpRecord, flags)},
             {"ns", offsetof(ClockSampleOmpRecord, ns)},
             {"omp_state", offsetof(ClockSampleOmpRecord, omp_state)},
             {"fork_stack_id", offsetof(ClockSampleOmpRecord, fork_stack_id)}};
    EXPECT_EQ(descriptor_offsets(omp_sample.c_str()), sample);
    M reg{{"word", 0},
          {"tid", offsetof(OmpRegionRecord, tid)},
          {"tstamp_ns", offsetof(OmpRegionRecord, tstamp_ns)},
          {"stack_id", offsetof(OmpRegionRecord, stack_id)},
          {"duration_ns", offsetof(OmpRegionRecord, duration_ns)},
          {"region_id", offsetof(OmpRegionRecord, region_id)},
          {"parent_id", offsetof(OmpRegionRecord, parent_id)},
          {"nthreads", offsetof(OmpRegionRecord, nthreads)},
          {"runtime", offsetof(OmpRegionRecord, runtime)}};
    EXPECT_EQ(descriptor_offsets(region.c_str()), reg);
    std::string task;
    std::getline(lines, task);
    EXPECT_EQ(task.rfind(std::to_string(kRecOmpTask) + " omp_task " + std::to_string(sizeof(OmpTaskRecord)) + " ", 0), 0u);
    EXPECT_EQ(descriptor_offsets(task.c_str()),
              (M{{"word", 0},
                 {"tid", offsetof(OmpTaskRecord, tid)},
                 {"tstamp_ns", offsetof(OmpTaskRecord, tstamp_ns)},
                 {"stack_id", offsetof(OmpTaskRecord, stack_id)},
                 {"duration_ns", offsetof(OmpTaskRecord, duration_ns)},
                 {"task_id", offsetof(OmpTaskRecord, task_id)},
                 {"region_id", offsetof(OmpTaskRecord, region_id)},
                 {"create_ns", offsetof(OmpTaskRecord, create_ns)},
                 {"create_tid", offsetof(OmpTaskRecord, create_tid)},
                 {"runtime", offsetof(OmpTaskRecord, runtime)}}));
    // The layout before the task records is still read.
    EXPECT_EQ(std::string(kClockDescriptor).rfind(kPreTaskClockDescriptor, 0), 0u);
    EXPECT_TRUE(descriptor_accepted(DataKind::kProfile, kPreTaskClockDescriptor, std::string(kPreTaskClockDescriptor).size()));
  }
  EXPECT_EQ(descriptor_offsets(kLegacyClockDescriptor),
            (M{{"word", 0},
               {"tid", offsetof(ClockSampleRecord, tid)},
               {"tstamp_ns", offsetof(ClockSampleRecord, tstamp_ns)},
               {"stack_id", offsetof(ClockSampleRecord, stack_id)},
               {"cpu", offsetof(ClockSampleRecord, cpu)},
               {"flags", offsetof(ClockSampleRecord, flags)},
               {"ns", offsetof(ClockSampleRecord, ns)}}));
  // The heap file holds several record kinds: one descriptor line each, with the kind's size.
  {
    M alloc{{"word", 0},
            {"tid", offsetof(HeapAllocRecord, tid)},
            {"tstamp_ns", offsetof(HeapAllocRecord, tstamp_ns)},
            {"stack_id", offsetof(HeapAllocRecord, stack_id)},
            {"size", offsetof(HeapAllocRecord, size)},
            {"address", offsetof(HeapAllocRecord, address)}};
    M free{{"word", 0},
           {"tid", offsetof(HeapFreeRecord, tid)},
           {"tstamp_ns", offsetof(HeapFreeRecord, tstamp_ns)},
           {"address", offsetof(HeapFreeRecord, address)}};
    M realloc{{"word", 0},
              {"tid", offsetof(HeapReallocRecord, tid)},
              {"tstamp_ns", offsetof(HeapReallocRecord, tstamp_ns)},
              {"stack_id", offsetof(HeapReallocRecord, stack_id)},
              {"duration_ns", offsetof(HeapReallocRecord, duration_ns)},
              {"size", offsetof(HeapReallocRecord, size)},
              {"address", offsetof(HeapReallocRecord, address)},
              {"old_address", offsetof(HeapReallocRecord, old_address)}};
    M java_sample = alloc;  // kind 49: the sampling interval where the others have the address
    java_sample.erase("address");
    java_sample["interval"] = offsetof(HeapAllocRecord, address);
    std::map<uint32_t, std::pair<size_t, M>> want = {
        {kRecHeapAlloc, {sizeof(HeapAllocRecord), alloc}},     {kRecHeapFree, {sizeof(HeapFreeRecord), free}},
        {kRecHeapRealloc, {sizeof(HeapReallocRecord), realloc}}, {kRecHeapMmap, {sizeof(HeapAllocRecord), alloc}},
        {kRecHeapMunmap, {sizeof(HeapAllocRecord), alloc}}, {kRecHeapJavaAlloc, {sizeof(HeapAllocRecord), alloc}},
        {kRecHeapJavaSample, {sizeof(HeapAllocRecord), java_sample}}};
    std::istringstream lines(kHeapDescriptor);
    std::set<uint32_t> seen;
    for (std::string line; std::getline(lines, line);) {
      std::istringstream in(line);
      uint32_t kind = 0;
      size_t size = 0;
      std::string name;
      in >> kind >> name >> size;
      ASSERT_TRUE(want.count(kind)) << line;
      seen.insert(kind);
      EXPECT_EQ(size, want[kind].first) << line;
      EXPECT_EQ(descriptor_offsets(line.c_str()), want[kind].second) << line;
    }
    EXPECT_EQ(seen.size(), want.size());
  }
  // The heaptrace of before Java allocations (kinds 8-12): kHeapDescriptor without kind 48, accepted.
  {
    std::string cur(kHeapDescriptor), pre(kPreJavaHeapDescriptor);
    ASSERT_EQ(cur.rfind(pre, 0), 0u);
    EXPECT_EQ(cur.substr(pre.size()).rfind("48 heap_java_alloc 40 ", 0), 0u);
    EXPECT_TRUE(descriptor_accepted(DataKind::kHeap, pre.data(), pre.size()));
    EXPECT_TRUE(descriptor_accepted(DataKind::kHeap, cur.data(), cur.size()));
  }
  // The heaptrace of before sampled Java allocations (kinds 8-12, 48): kind 49 added after them.
  {
    std::string cur(kHeapDescriptor), pre(kPreJavaSampleHeapDescriptor);
    ASSERT_EQ(cur.rfind(pre, 0), 0u);
    EXPECT_EQ(cur.substr(pre.size()).rfind("49 heap_java_sample 40 ", 0), 0u);
    EXPECT_TRUE(descriptor_accepted(DataKind::kHeap, pre.data(), pre.size()));
    std::string other = pre + "50 heap_other 40 word:u32@0\n";
    EXPECT_FALSE(descriptor_accepted(DataKind::kHeap, other.data(), other.size()));
  }
  EXPECT_EQ(descriptor_offsets(kLegacyHeapDescriptor),
            (M{{"word", 0},
               {"tid", offsetof(LegacyHeapEventRecord, tid)},
               {"tstamp_ns", offsetof(LegacyHeapEventRecord, tstamp_ns)},
               {"stack_id", offsetof(LegacyHeapEventRecord, stack_id)},
               {"op", offsetof(LegacyHeapEventRecord, op)},
               {"size", offsetof(LegacyHeapEventRecord, size)},
               {"address", offsetof(LegacyHeapEventRecord, address)},
               {"old_address", offsetof(LegacyHeapEventRecord, old_address)}}));
  EXPECT_EQ(descriptor_offsets(kSyncDescriptor),
            (M{{"word", 0},
               {"tid", offsetof(SyncEventRecord, tid)},
               {"tstamp_ns", offsetof(SyncEventRecord, tstamp_ns)},
               {"stack_id", offsetof(SyncEventRecord, stack_id)},
               {"op", offsetof(SyncEventRecord, op)},
               {"wait_ns", offsetof(SyncEventRecord, wait_ns)},
               {"object", offsetof(SyncEventRecord, object)}}));
  EXPECT_EQ(descriptor_offsets(kIoDescriptor),
            (M{{"word", 0},
               {"tid", offsetof(IoEventRecord, tid)},
               {"tstamp_ns", offsetof(IoEventRecord, tstamp_ns)},
               {"stack_id", offsetof(IoEventRecord, stack_id)},
               {"op", offsetof(IoEventRecord, op)},
               {"fd", offsetof(IoEventRecord, fd)},
               {"duration_ns", offsetof(IoEventRecord, duration_ns)},
               {"bytes", offsetof(IoEventRecord, bytes)},
               {"file_id", offsetof(IoEventRecord, file_id)}}));
  M overview = descriptor_offsets(kOverviewDescriptor);
  EXPECT_EQ(overview.size(), 18u);
  EXPECT_EQ(overview["reason"], offsetof(OverviewSampleRecord, reason));
  EXPECT_EQ(overview["number"], offsetof(OverviewSampleRecord, number));
  EXPECT_EQ(overview["utime_ns"], offsetof(OverviewSampleRecord, utime_ns));
  EXPECT_EQ(overview["majflt"], offsetof(OverviewSampleRecord, majflt));
  EXPECT_EQ(overview["rss_kb"], offsetof(OverviewSampleRecord, rss_kb));
  EXPECT_EQ(overview["write_bytes"], offsetof(OverviewSampleRecord, write_bytes));
  EXPECT_EQ(overview["label"], offsetof(OverviewSampleRecord, label));
}

TEST(RecordWord, PacksKindSizeAndTheIncompleteBit) {
  uint32_t w = make_record_word(kRecClockSample, 88);
  EXPECT_EQ(w, 0x00020058u);
  EXPECT_EQ(record_kind(w), 2u);
  EXPECT_EQ(record_size(w), 88u);
  EXPECT_TRUE(record_complete(w));
  EXPECT_FALSE(record_complete(w | kIncompleteBit));
  EXPECT_EQ(record_kind(w | kIncompleteBit), 2u);  // the bit is not part of the kind
  EXPECT_EQ(align8(17), 24u);
  EXPECT_EQ(align8(24), 24u);
}

TEST_F(HostWriterTest, ClockSampleBytesAreTheRecordWithItsWord) {
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    ClockSampleRecord r{};
    r.word = 0xdeadbeef;  // the writer sets the word
    r.tid = 4242;
    r.tstamp_ns = 123456789012ull;
    r.stack_id = 0x1122334455667788ull;
    r.cpu = -1;
    r.flags = kClockFlagMainThread | kClockFlagBlockedSample;
    for (uint32_t i = 0; i < kMsCount; ++i) r.ns[i] = 1000u * (i + 1) + i;
    w.clock_sample(r);
  }
  auto b = bytes("profile");
  ASSERT_EQ(b.size(), kHeaderSize + kBlockSize);  // whole blocks only
  size_t r0 = kHeaderSize;
  EXPECT_EQ(u32(b, r0 + 0), make_record_word(kRecClockSample, 88));
  EXPECT_EQ(u32(b, r0 + 4), 4242u);
  EXPECT_EQ(u64(b, r0 + 8), 123456789012ull);
  EXPECT_EQ(u64(b, r0 + 16), 0x1122334455667788ull);
  EXPECT_EQ(u32(b, r0 + 24), 0xffffffffu);
  EXPECT_EQ(u32(b, r0 + 28), 3u);
  for (uint32_t i = 0; i < kMsCount; ++i) EXPECT_EQ(u64(b, r0 + 32 + 8 * i), 1000u * (i + 1) + i) << i;
  EXPECT_EQ(u32(b, r0 + 88), 0u);  // a zero word ends the block
}

TEST_F(HostWriterTest, EachStackIsStoredOnce) {
  uint64_t a1, a2, b1, c1;
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    a1 = w.stack({0x401000, 0x402000, 0x403000});
    b1 = w.stack({0x401000, 0x402000});
    a2 = w.stack({0x401000, 0x402000, 0x403000});
    c1 = w.stack({0x402000, 0x401000, 0x403000});  // same pcs, other order: another stack
  }
  EXPECT_EQ(a1, a2);
  EXPECT_NE(a1, b1);
  EXPECT_NE(a1, c1);
  for (uint64_t id : {a1, b1, c1}) EXPECT_GE(id, 16u);  // below 16: kNoStackId and pseudo ids
  auto b = bytes("stacks");
  ASSERT_EQ(b.size(), kHeaderSize + kBlockSize);
  // Three records, in the order first written: 16 + 24, 16 + 16, 16 + 24 bytes, then the end.
  size_t off = kHeaderSize;
  struct Expect {
    uint64_t id;
    std::vector<uint64_t> pcs;
  };
  for (const Expect& x : {Expect{a1, {0x401000, 0x402000, 0x403000}}, Expect{b1, {0x401000, 0x402000}},
                          Expect{c1, {0x402000, 0x401000, 0x403000}}}) {
    uint32_t size = uint32_t(16 + 8 * x.pcs.size());
    EXPECT_EQ(u32(b, off), make_record_word(kRecStack, size));
    EXPECT_EQ(u32(b, off + 4), x.pcs.size());
    EXPECT_EQ(u64(b, off + 8), x.id);
    for (size_t i = 0; i < x.pcs.size(); ++i) EXPECT_EQ(u64(b, off + 16 + 8 * i), x.pcs[i]);
    off += size;
  }
  EXPECT_EQ(u32(b, off), 0u);
}

TEST_F(HostWriterTest, ARecordThatDoesNotFitStartsTheNextBlock) {
  // 744 clock samples of 88 bytes fill 65472 bytes of a block; the 745th would cross the
  // block's end, so it opens block 1 and block 0 ends with 64 zero bytes.
  constexpr uint32_t kFit = kBlockSize / sizeof(ClockSampleRecord);
  static_assert(kFit == 744);
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    for (uint32_t i = 0; i <= kFit; ++i) {
      ClockSampleRecord r{};
      r.tid = 7;
      r.tstamp_ns = i;
      w.clock_sample(r);
    }
  }
  auto b = bytes("profile");
  ASSERT_EQ(b.size(), kHeaderSize + 2 * kBlockSize);
  size_t last_in_0 = kHeaderSize + (kFit - 1) * sizeof(ClockSampleRecord);
  EXPECT_EQ(u64(b, last_in_0 + 8), kFit - 1);
  for (size_t off = kHeaderSize + kFit * sizeof(ClockSampleRecord); off < kHeaderSize + kBlockSize; off += 4)
    EXPECT_EQ(u32(b, off), 0u) << off;
  size_t first_in_1 = kHeaderSize + kBlockSize;
  EXPECT_EQ(u32(b, first_in_1), make_record_word(kRecClockSample, 88));
  EXPECT_EQ(u64(b, first_in_1 + 8), kFit);
  EXPECT_EQ(u32(b, first_in_1 + 88), 0u);
}

TEST_F(HostWriterTest, RecordsThatFillABlockExactlyLeaveNoTerminator) {
  // Stacks of 510 frames are 16 + 4080 = 4096 bytes: 16 of them fill block 0 to its last byte.
  std::vector<uint64_t> ids;
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    for (uint64_t s = 0; s < 17; ++s) {
      std::vector<uint64_t> pcs(510);
      for (size_t i = 0; i < pcs.size(); ++i) pcs[i] = 0x400000 + s * 0x10000 + i;
      ids.push_back(w.stack(pcs));
    }
  }
  auto b = bytes("stacks");
  ASSERT_EQ(b.size(), kHeaderSize + 2 * kBlockSize);
  for (size_t s = 0; s < 16; ++s) {
    size_t off = kHeaderSize + s * 4096;
    EXPECT_EQ(u32(b, off), make_record_word(kRecStack, 4096)) << s;
    EXPECT_EQ(u64(b, off + 8), ids[s]) << s;
    EXPECT_EQ(u64(b, off + 4088), 0x400000 + s * 0x10000 + 509) << s;  // the last pc, the block's last 8 bytes
  }
  EXPECT_EQ(u32(b, kHeaderSize + kBlockSize), make_record_word(kRecStack, 4096));
  EXPECT_EQ(u64(b, kHeaderSize + kBlockSize + 8), ids[16]);
}

TEST_F(HostWriterTest, LoadObjectLineQuotesThePath) {
  {
    HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    w.load_object("/opt/a \"b\"\\c.so", 0x7f0000000000, 0x7f0000001000, 0x7f0000005000, "abc123", 42);
    w.load_object("/bin/x", 0, 0x400000, 0x401000);
  }
  std::ifstream map(dir_ + "/map");
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(map, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1],
            "42 load path=\"/opt/a \\\"b\\\"\\\\c.so\" bias=0x7f0000000000 lo=0x7f0000001000 hi=0x7f0000005000 "
            "buildid=abc123");
  EXPECT_EQ(lines[2], "0 load path=\"/bin/x\" bias=0x0 lo=0x400000 hi=0x401000 buildid=-");
}

}  // namespace
}  // namespace erkit::format
