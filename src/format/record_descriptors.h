// Self-description written into each data file's header: which record kinds the file holds,
// their sizes and field offsets. Readers check it against their own compiled-in layout and
// refuse (with a clear message) a file whose layout differs. Freestanding.
#pragma once
#include "format/experiment_format.h"

namespace erkit::format {

inline constexpr const char* kStackDescriptor =
    "1 stack 0 word:u32@0 nframes:u32@4 id:u64@8 pcs:u64[]@16\n";
// Each record kind's line, once: a data kind's descriptor is its kinds' lines in order, and an
// older layout a reader still accepts is the same lines up to the kind added after it (issue
// 18: these were near-copies of each other).
#define ERKIT_REC_CLOCK_SAMPLE                                                                    \
  "2 clock_sample 88 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 cpu:i32@24 "              \
  "flags:u32@28 ns:u64[7]@32\n"
#define ERKIT_REC_CLOCK_SAMPLE_OMP                                                                \
  "40 clock_sample_omp 104 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 cpu:i32@24 "        \
  "flags:u32@28 ns:u64[7]@32 omp_state:u32@88 fork_stack_id:u64@96\n"
#define ERKIT_REC_OMP_REGION                                                                      \
  "41 omp_region 56 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 duration_ns:u64@24 "       \
  "region_id:u64@32 parent_id:u64@40 nthreads:u32@48 runtime:u32@52\n"
#define ERKIT_REC_OMP_TASK                                                                        \
  "42 omp_task 64 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 duration_ns:u64@24 "         \
  "task_id:u64@32 region_id:u64@40 create_ns:u64@48 create_tid:u32@56 runtime:u32@60\n"
#define ERKIT_REC_CLOCK_COMPACT \
  "14 clock_compact 0 word:u32@0 present:u8@4 ns_mask:u8@5 body:varint[]@6\n"
#define ERKIT_REC_HEAP_COMPACT                                                                    \
  "8 heap_alloc 40 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 size:u64@24 address:u64@32\n" \
  "9 heap_free 24 word:u32@0 tid:u32@4 tstamp_ns:u64@8 address:u64@16\n"                            \
  "10 heap_realloc 56 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 duration_ns:u32@24 "     \
  "size:u64@32 address:u64@40 old_address:u64@48\n"                                                \
  "11 heap_mmap 40 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 size:u64@24 address:u64@32\n" \
  "12 heap_munmap 40 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 size:u64@24 address:u64@32\n"
#define ERKIT_REC_HEAP_JAVA_ALLOC \
  "48 heap_java_alloc 40 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 size:u64@24 address:u64@32\n"
#define ERKIT_REC_HEAP_JAVA_SAMPLE \
  "49 heap_java_sample 40 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 size:u64@24 interval:u64@32\n"

// The profile of an OpenMP program also holds clock samples with their OpenMP state and the
// parallel regions (docs/openmp.md); clock samples without an OpenMP state are written in the
// compact encoding (kind 14, format/clock_compact.h).
inline constexpr const char* kClockDescriptor =
    ERKIT_REC_CLOCK_SAMPLE ERKIT_REC_CLOCK_SAMPLE_OMP ERKIT_REC_OMP_REGION ERKIT_REC_OMP_TASK
        ERKIT_REC_CLOCK_COMPACT;
// The profile layout before the compact clock samples (kind 14); readers still accept it.
inline constexpr const char* kPreCompactClockDescriptor =
    ERKIT_REC_CLOCK_SAMPLE ERKIT_REC_CLOCK_SAMPLE_OMP ERKIT_REC_OMP_REGION ERKIT_REC_OMP_TASK;
// The profile layout before the task records (regions, no tasks); readers still accept it.
inline constexpr const char* kPreTaskClockDescriptor =
    ERKIT_REC_CLOCK_SAMPLE ERKIT_REC_CLOCK_SAMPLE_OMP ERKIT_REC_OMP_REGION;
// The profile layout before the OpenMP records; readers still accept it.
inline constexpr const char* kLegacyClockDescriptor = ERKIT_REC_CLOCK_SAMPLE;
inline constexpr const char* kOverviewDescriptor =
    "3 overview_sample 184 word:u32@0 reason:u32@4 tstamp_ns:u64@8 number:u32@16 nthreads:u32@20 "
    "utime_ns:i64@24 stime_ns:i64@32 minflt:i64@40 majflt:i64@48 nvcsw:i64@56 nivcsw:i64@64 "
    "inblock:i64@72 oublock:i64@80 maxrss_kb:i64@88 rss_kb:i64@96 read_bytes:i64@104 "
    "write_bytes:i64@112 label:char[64]@120\n";
inline constexpr const char* kHeapDescriptor =
    ERKIT_REC_HEAP_COMPACT ERKIT_REC_HEAP_JAVA_ALLOC ERKIT_REC_HEAP_JAVA_SAMPLE;
// The compact heaptrace layout before sampled Java allocations (kind 49); readers still accept it.
inline constexpr const char* kPreJavaSampleHeapDescriptor = ERKIT_REC_HEAP_COMPACT ERKIT_REC_HEAP_JAVA_ALLOC;
// The compact heaptrace layout before Java allocations (kind 48); readers still accept it.
inline constexpr const char* kPreJavaHeapDescriptor = ERKIT_REC_HEAP_COMPACT;
#undef ERKIT_REC_CLOCK_SAMPLE
#undef ERKIT_REC_CLOCK_SAMPLE_OMP
#undef ERKIT_REC_OMP_REGION
#undef ERKIT_REC_OMP_TASK
#undef ERKIT_REC_CLOCK_COMPACT
#undef ERKIT_REC_HEAP_COMPACT
#undef ERKIT_REC_HEAP_JAVA_ALLOC
#undef ERKIT_REC_HEAP_JAVA_SAMPLE
// The heaptrace layout written before the compact records; readers still accept it.
inline constexpr const char* kLegacyHeapDescriptor =
    "4 heap_event 56 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 op:u32@24 "
    "size:u64@32 address:u64@40 old_address:u64@48\n";
inline constexpr const char* kSyncDescriptor =
    "5 sync_event 48 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 op:u32@24 "
    "wait_ns:u64@32 object:u64@40\n";
inline constexpr const char* kIoDescriptor =
    "6 io_event 56 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 op:u32@24 fd:i32@28 "
    "duration_ns:u64@32 bytes:i64@40 file_id:u32@48\n";
inline constexpr const char* kHwcDescriptor =
    "7 hwc_event 208 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 counter:u32@24 "
    "flags:u32@28 value:u64@32 pc:u64@40 vaddr:u64@48 paddr:u64@56 addr_source:u32@64 cpu:i32@68 "
    "regs:u64[17]@72\n";
inline constexpr const char* kMpiDescriptor =
    "13 mpi_event 72 word:u32@0 tid:u32@4 tstamp_ns:u64@8 stack_id:u64@16 function:u32@24 "
    "comm_size:i32@28 duration_ns:u64@32 peer:i32@40 tag:i32@44 sends:u32@48 receives:u32@52 "
    "bytes_sent:u64@56 bytes_received:u64@64\n";

inline constexpr const char* record_descriptor_text(DataKind k) {
  switch (k) {
    case DataKind::kStacks: return kStackDescriptor;
    case DataKind::kProfile: return kClockDescriptor;
    case DataKind::kOverview: return kOverviewDescriptor;
    case DataKind::kHeap: return kHeapDescriptor;
    case DataKind::kSync: return kSyncDescriptor;
    case DataKind::kIo: return kIoDescriptor;
    case DataKind::kHwc: return kHwcDescriptor;
    case DataKind::kMpi: return kMpiDescriptor;
    case DataKind::kCount: break;
  }
  return "";
}

// The older layouts readers still decode, one row each.
struct OlderDescriptor {
  DataKind kind;
  const char* text;
};
inline constexpr OlderDescriptor kOlderDescriptors[] = {
    {DataKind::kHeap, kLegacyHeapDescriptor},        {DataKind::kHeap, kPreJavaHeapDescriptor},
    {DataKind::kHeap, kPreJavaSampleHeapDescriptor}, {DataKind::kProfile, kLegacyClockDescriptor},
    {DataKind::kProfile, kPreTaskClockDescriptor},   {DataKind::kProfile, kPreCompactClockDescriptor},
};

// Whether a reader of this version accepts a data file of kind k with this descriptor: this
// version's own, or an older layout it still decodes.
inline bool descriptor_accepted(DataKind k, const char* desc, size_t len) {
  auto same = [&](const char* want) {
    size_t n = __builtin_strlen(want);
    return n == len && __builtin_memcmp(want, desc, n) == 0;
  };
  if (same(record_descriptor_text(k))) return true;
  for (const OlderDescriptor& o : kOlderDescriptors)
    if (o.kind == k && same(o.text)) return true;
  return false;
}

static_assert(offsetof(ClockSampleRecord, ns) == 32);
static_assert(offsetof(ClockSampleOmpRecord, omp_state) == 88);
static_assert(offsetof(ClockSampleOmpRecord, fork_stack_id) == 96);
static_assert(offsetof(OmpRegionRecord, nthreads) == 48);
static_assert(offsetof(OmpTaskRecord, create_tid) == 56);
static_assert(sizeof(OverviewSampleRecord) == 184);
static_assert(offsetof(OverviewSampleRecord, label) == 120);
static_assert(offsetof(HeapReallocRecord, duration_ns) == 24);
static_assert(sizeof(SyncEventRecord) == 48);
static_assert(sizeof(IoEventRecord) == 56);
static_assert(sizeof(MpiEventRecord) == 72);
static_assert(sizeof(HwcEventRecord) == 208);
static_assert(offsetof(HwcEventRecord, regs) == 72);
static_assert(offsetof(MpiEventRecord, bytes_received) == 64);

// The header every data file starts with (the writer's, the host writer's, collect's outside
// sampler's, the fuzzers'). Freestanding: the collector may use it.
inline FileHeader make_file_header(DataKind k) {
  FileHeader h;
  __builtin_memset(&h, 0, sizeof h);
  __builtin_memcpy(h.magic, kFileMagic, sizeof h.magic);
  h.format_version = kFormatVersion;
  h.header_size = kHeaderSize;
  h.block_size = kBlockSize;
  h.data_kind = uint32_t(k);
  h.endian_check = kEndianCheck;
  const char* d = record_descriptor_text(k);
  for (size_t i = 0; i + 1 < sizeof h.descriptor && d[i]; ++i) h.descriptor[i] = d[i];
  return h;
}

}  // namespace erkit::format
