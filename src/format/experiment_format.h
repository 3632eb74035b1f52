// The erkit experiment format, version 1: the one definition shared by the collector (writer)
// and the reader. Freestanding: only <stdint.h>/<stddef.h>, no libstdc++, so the collector can
// include it. Documented for users in docs/experiment-format.md; change both together and bump
// kFormatVersion on any incompatible change.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace erkit::format {

inline constexpr uint32_t kFormatVersion = 1;

// ---- Files inside an experiment directory ------------------------------------------------
inline constexpr const char* kLogFile = "log";          // text: run log (settings, events, end)
inline constexpr const char* kMapFile = "map";          // text: load-object map (load/unload)
inline constexpr const char* kNotesFile = "notes";      // text: -C comments
inline constexpr const char* kArchivesDir = "archives"; // load-object identities and copies

// Binary data files, one per data kind. Index = DataKind.
enum class DataKind : uint32_t {
  kStacks = 0,    // "stacks": call stacks, each stored once, referenced by id
  kProfile = 1,   // "profile": clock-profiling samples
  kOverview = 2,  // "overview": periodic / signal / API samples of process-wide usage
  kHeap = 3,      // "heaptrace"
  kSync = 4,      // "synctrace"
  kIo = 5,        // "iotrace"
  kHwc = 6,       // "hwcounters"
  kMpi = 7,       // "mpitrace"
  kCount = 8,
};
inline constexpr const char* kDataFileNames[] = {"stacks",    "profile",   "overview",  "heaptrace",
                                                 "synctrace", "iotrace",   "hwcounters", "mpitrace"};
static_assert(sizeof(kDataFileNames) / sizeof(kDataFileNames[0]) == size_t(DataKind::kCount));

// ---- Binary data file layout ----------------------------------------------------------------
// [FileHeader, kHeaderSize bytes][block 0][block 1]...
// Each block is kBlockSize bytes, owned by one writer thread at a time, and holds a sequence of
// 8-byte-aligned records. A record starts with a 32-bit RecordHeader word. A zero word ends the
// block (the rest is unwritten). Writers store the word with kIncompleteBit first, fill the body,
// then store the final word with release order, so a reader (even of a killed target's files)
// sees each record either complete or marked incomplete, and can always skip it by its size.
inline constexpr char kFileMagic[8] = {'E', 'R', 'K', 'I', 'T', 'D', 'A', 'T'};
inline constexpr uint32_t kHeaderSize = 4096;
inline constexpr uint32_t kBlockSize = 64 * 1024;
inline constexpr uint32_t kEndianCheck = 0x01020304;

struct FileHeader {
  char magic[8];            // kFileMagic
  uint32_t format_version;  // kFormatVersion
  uint32_t header_size;     // kHeaderSize
  uint32_t block_size;      // kBlockSize
  uint32_t data_kind;       // DataKind
  uint32_t endian_check;    // kEndianCheck in the writer's byte order
  uint32_t reserved0;
  uint64_t created_ns;      // CLOCK_MONOTONIC at creation
  // Self-description: NUL-terminated text, one line per record kind:
  //   "<kind-id> <name> <size-or-0-if-variable> <field>:<type>@<offset> ..."
  char descriptor[kHeaderSize - 40];
};
static_assert(sizeof(FileHeader) == kHeaderSize);

inline constexpr uint32_t kIncompleteBit = 0x80000000u;
inline constexpr uint32_t kRecordSizeMask = 0x0000ffffu;  // total record bytes, multiple of 8
inline constexpr uint32_t kRecordKindShift = 16;
inline constexpr uint32_t kRecordKindMask = 0x7fffu;

inline constexpr uint32_t make_record_word(uint32_t kind, uint32_t size) {
  return (kind << kRecordKindShift) | (size & kRecordSizeMask);
}
inline constexpr uint32_t record_size(uint32_t word) { return word & kRecordSizeMask; }
inline constexpr uint32_t record_kind(uint32_t word) {
  return (word >> kRecordKindShift) & kRecordKindMask;
}
inline constexpr bool record_complete(uint32_t word) { return (word & kIncompleteBit) == 0; }
inline constexpr uint32_t align8(uint32_t n) { return (n + 7u) & ~7u; }

// Record kinds (unique across all files, so a record is recognisable on its own).
enum RecordKind : uint32_t {
  kRecStack = 1,
  kRecClockSample = 2,
  kRecOverviewSample = 3,
  kRecLegacyHeapEvent = 4,  // read, no longer written: see "Heap trace" below
  kRecSyncEvent = 5,
  kRecIoEvent = 6,
  kRecHwcEvent = 7,
  kRecHeapAlloc = 8,    // HeapAllocRecord
  kRecHeapFree = 9,     // HeapFreeRecord
  kRecHeapRealloc = 10, // HeapReallocRecord (realloc family and mremap)
  kRecHeapMmap = 11,    // HeapAllocRecord
  kRecHeapMunmap = 12,  // HeapAllocRecord, stack_id = kNoStackId
  kRecMpiEvent = 13,    // MpiEventRecord
  // OpenMP (docs/openmp.md); numbered apart from the others so parallel additions do not collide.
  kRecClockSampleOmp = 40,  // ClockSampleOmpRecord: a clock sample with its OpenMP state
  kRecOmpRegion = 41,       // OmpRegionRecord: one parallel region, written at its end
  kRecOmpTask = 42,         // OmpTaskRecord: one explicit task, written when it completes
  // Java (docs/java.md), numbered apart as well.
  kRecHeapJavaAlloc = 48,   // HeapAllocRecord: a Java object (JVMTI SampledObjectAlloc), address 0
  kRecHeapJavaSample = 49,  // HeapAllocRecord: a sampled Java object, address = the mean sampling interval
};

// ---- Call stacks --------------------------------------------------------------------------
// Stack ids are 64-bit hashes of the PC list; a stack may be written more than once (the reader
// keeps the first). PCs are absolute addresses; the map file relates them to load objects.
inline constexpr uint32_t kMaxStackFrames = 250;  // deeper stacks end with kTruncatedMarkerPc
inline constexpr uint64_t kTruncatedMarkerPc = 1;  // pseudo-PC: the stack was cut at the limit
inline constexpr uint64_t kUnwindFailedPc = 2;     // pseudo-PC: the unwinder stopped early
// Pseudo-PCs of kernel experiments (er_kernel -T): single-frame stacks of a chosen thread's
// time off the CPU asleep, runnable but waiting for a CPU, and on the CPU in user mode.
inline constexpr uint64_t kKernelSleepingPc = 3;   // <SLEEPING>
inline constexpr uint64_t kKernelStalledPc = 4;    // <STALLED>
inline constexpr uint64_t kKernelUserModePc = 5;   // <USER_MODE>
inline constexpr uint64_t kNoStackId = 0;

// ---- Java stacks (collect -j on; docs/java.md) ---------------------------------------------
// A stack of a JVM process recorded with Java profiling is its machine stack (leaf first), then
// kJavaMarkerPc, then either the Java frames (leaf first) or one status word. A Java frame word
// is the jmethodID in bits 0..47 and the bytecode index in bits 48..63 (kJavaNativeBci: a
// native method). Status words are small numbers, never a jmethodID (a heap address).
inline constexpr uint64_t kJavaMarkerPc = 6;
inline constexpr uint64_t kJavaNotJavaThread = 7;  // a JVM thread that runs no Java (GC, compiler)
// A Java thread whose Java stack could not be taken: kJavaNoStackBase + the negated
// AsyncGetCallTrace status (0: no Java frame; 2: GC active; 9: deoptimising; ...).
inline constexpr uint64_t kJavaNoStackBase = 16;
inline constexpr uint64_t kJavaNoStackEnd = 64;
inline constexpr uint64_t kJavaNativeBci = 0xfffd;
inline constexpr uint32_t kJavaMaxFrames = 96;  // Java frames kept per stack (deeper: cut)
inline constexpr uint64_t java_frame_word(uint64_t method_id, int32_t bci) {
  return (method_id & 0xffffffffffffull) | (uint64_t(uint16_t(bci)) << 48);
}
inline constexpr const char* kJavaFile = "java";  // text: threads, classes, methods (JVMTI)
inline constexpr uint32_t kJavaFileVersion = 2;  // its "version" record (2: + "code" records)

struct StackRecord {
  uint32_t word;     // make_record_word(kRecStack, size)
  uint32_t nframes;  // number of pcs that follow
  uint64_t id;
  uint64_t pcs[];    // leaf first
};
static_assert(sizeof(StackRecord) == 16);

// ---- Clock profiling ----------------------------------------------------------------------
// Linux approximation of the Solaris microstates (seed-spec table 7-2). Each clock sample says
// how many nanoseconds of each state it stands for since the thread's previous sample.
enum Microstate : uint32_t {
  kMsUser = 0,       // user          User CPU Time
  kMsSystem = 1,     // system        System CPU Time
  kMsWaitCpu = 2,    // wait          Wait CPU Time (runnable, not running)
  kMsUserLock = 3,   // lock          User Lock Time
  kMsTextFault = 4,  // text          Text Page Fault Time
  kMsDataFault = 5,  // data          Data Page Fault Time
  kMsOtherWait = 6,  // owait         Other Wait Time
  kMsCount = 7,
};

struct ClockSampleRecord {
  uint32_t word;       // make_record_word(kRecClockSample, sizeof)
  uint32_t tid;        // kernel thread id (LWP)
  uint64_t tstamp_ns;  // CLOCK_MONOTONIC, nanoseconds since experiment start
  uint64_t stack_id;
  int32_t cpu;         // sched_getcpu() or -1
  uint32_t flags;      // kClockFlag*
  uint64_t ns[kMsCount];
};
static_assert(sizeof(ClockSampleRecord) == 88);
inline constexpr uint32_t kClockFlagMainThread = 1u;  // the process's initial thread (wall time)
inline constexpr uint32_t kClockFlagBlockedSample = 2u;  // sampled while blocked, not by its CPU timer
// Kernel experiments (er_kernel): a sample of the kernel's clock profile (KCPU Cycles; its ns
// are the sampling period), and with kClockFlagKernelThread a sample of a thread chosen with
// -T (Kthr Time: on the CPU, <SLEEPING> or <STALLED>).
inline constexpr uint32_t kClockFlagKernel = 4u;
inline constexpr uint32_t kClockFlagKernelThread = 8u;
// The sample interrupted the thread in a system call (its PC on or right after the syscall
// instruction), not in user code. The analysis charges a sample's System time to the thread's
// latest such stack and its User time to the latest user-code stack (docs/clock-profiling.md,
// "User and System time per function").
inline constexpr uint32_t kClockFlagInSyscall = 16u;

// ---- Periodic samples (overview) -----------------------------------------------------------
enum SampleReason : uint32_t {
  kSampleStart = 0,
  kSampleEnd = 1,
  kSamplePeriodic = 2,
  kSampleSignal = 3,   // -l signal
  kSampleApi = 4,      // collector_sample(name)
  kSamplePause = 5,
  kSampleResume = 6,
  kSampleFork = 7,
  kSampleExec = 8,
};

struct OverviewSampleRecord {
  uint32_t word;
  uint32_t reason;      // SampleReason
  uint64_t tstamp_ns;
  uint32_t number;      // 1-based sample number
  uint32_t nthreads;
  int64_t utime_ns, stime_ns;              // getrusage(RUSAGE_SELF)
  int64_t minflt, majflt, nvcsw, nivcsw;   // getrusage
  int64_t inblock, oublock;
  int64_t maxrss_kb, rss_kb;               // getrusage / /proc/self/statm
  int64_t read_bytes, write_bytes;         // /proc/self/io (-1 when unreadable)
  char label[64];                          // collector_sample(name) or signal name
};

// ---- Heap, sync, I/O traces (fields fixed now so the reader can be written once) ----------
// Heap trace: one compact record per event, its kind saying which operation it was; bytes
// written are most of the tracer's cost (a malloc+free pair is 40 + 24 bytes). Allocations carry
// the allocating call stack; releases carry only what the leak computation needs. Writers and
// readers go through encode_heap_record / decode_heap_record (below), never the structs directly.
enum HeapOp : uint32_t { kHeapMalloc = 1, kHeapFree, kHeapRealloc, kHeapMmap, kHeapMunmap, kHeapJavaAlloc,
                         kHeapJavaSample };

// kRecHeapJavaSample (collect -H on in a JVM, docs/java.md): one object of the JVM's heap sampler
// (JVMTI SetHeapSamplingInterval), which samples the thread's allocated bytes at exponentially
// distributed gaps of mean `address` bytes; the reader weighs it to an estimate (java_alloc_estimate.h).
struct HeapAllocRecord {  // kRecHeapAlloc, kRecHeapMmap, kRecHeapMunmap, kRecHeapJavaAlloc, kRecHeapJavaSample
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;  // after the call returned
  uint64_t stack_id;   // kNoStackId for munmap
  uint64_t size;       // bytes requested (mmap/munmap: length)
  uint64_t address;    // the block (munmap: the start of the unmapped range)
};
static_assert(sizeof(HeapAllocRecord) == 40);

struct HeapFreeRecord {  // kRecHeapFree
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;  // before the real free ran
  uint64_t address;
};
static_assert(sizeof(HeapFreeRecord) == 24);

struct HeapReallocRecord {  // kRecHeapRealloc
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;     // at the call's end
  uint64_t stack_id;
  uint32_t duration_ns;   // the call's duration: the old block was released at tstamp - duration
  uint32_t reserved;
  uint64_t size;
  uint64_t address;       // the new block
  uint64_t old_address;   // the previous block (may equal address)
};
static_assert(sizeof(HeapReallocRecord) == 56);

// Kind 4, written by erkit before the compact records (the same format version): still read.
struct LegacyHeapEventRecord {
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t op;         // HeapOp
  uint32_t reserved;   // realloc: ns from the call's start (when the old block was released)
  uint64_t size;       // bytes allocated (0 for free)
  uint64_t address;    // result address, or the freed address
  uint64_t old_address;  // realloc: the previous block
};
static_assert(sizeof(LegacyHeapEventRecord) == 56);

// One heap event whatever record carried it (not an on-disk layout): what writers encode and
// readers decode. Fields a record kind does not carry are 0.
struct HeapEvent {
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint64_t size;
  uint64_t address;
  uint64_t old_address;  // realloc
  uint32_t tid;
  uint32_t op;           // HeapOp
  uint32_t duration_ns;  // realloc
  uint64_t interval;     // kHeapJavaSample: the mean sampling interval in bytes
};

// The record kind and size an event is written as (0, 0 for an unknown op).
inline constexpr uint32_t heap_record_kind(uint32_t op) {
  switch (op) {
    case kHeapMalloc: return kRecHeapAlloc;
    case kHeapFree: return kRecHeapFree;
    case kHeapRealloc: return kRecHeapRealloc;
    case kHeapMmap: return kRecHeapMmap;
    case kHeapMunmap: return kRecHeapMunmap;
    case kHeapJavaAlloc: return kRecHeapJavaAlloc;
    case kHeapJavaSample: return kRecHeapJavaSample;
  }
  return 0;
}
inline constexpr uint32_t heap_record_size(uint32_t op) {
  switch (op) {
    case kHeapFree: return sizeof(HeapFreeRecord);
    case kHeapRealloc: return sizeof(HeapReallocRecord);
    case kHeapMalloc: case kHeapMmap: case kHeapMunmap: case kHeapJavaAlloc: case kHeapJavaSample:
      return sizeof(HeapAllocRecord);
  }
  return 0;
}

// Fills the record body at dst (heap_record_size(e.op) bytes, 8-aligned) except its word, which
// the writer stores last (see the record protocol above). Freestanding: the collector uses it.
inline void encode_heap_record(const HeapEvent& e, void* dst) {
  switch (e.op) {
    case kHeapFree: {
      auto* r = static_cast<HeapFreeRecord*>(dst);
      r->tid = e.tid;
      r->tstamp_ns = e.tstamp_ns;
      r->address = e.address;
      return;
    }
    case kHeapRealloc: {
      auto* r = static_cast<HeapReallocRecord*>(dst);
      r->tid = e.tid;
      r->tstamp_ns = e.tstamp_ns;
      r->stack_id = e.stack_id;
      r->duration_ns = e.duration_ns;
      r->reserved = 0;
      r->size = e.size;
      r->address = e.address;
      r->old_address = e.old_address;
      return;
    }
    case kHeapJavaSample: {
      auto* r = static_cast<HeapAllocRecord*>(dst);
      r->tid = e.tid;
      r->tstamp_ns = e.tstamp_ns;
      r->stack_id = e.stack_id;
      r->size = e.size;
      r->address = e.interval;
      return;
    }
    default: {
      auto* r = static_cast<HeapAllocRecord*>(dst);
      r->tid = e.tid;
      r->tstamp_ns = e.tstamp_ns;
      r->stack_id = e.stack_id;
      r->size = e.size;
      r->address = e.address;
      return;
    }
  }
}

// Decodes a complete heap record of the given kind and total size (p need not be aligned);
// false if the kind is not a heap record or the size is not its size.
inline bool decode_heap_record(uint32_t kind, const void* p, uint32_t size, HeapEvent* out) {
  *out = HeapEvent{};
  switch (kind) {
    case kRecHeapAlloc:
    case kRecHeapMmap:
    case kRecHeapMunmap:
    case kRecHeapJavaAlloc: {
      HeapAllocRecord r;
      if (size != sizeof r) return false;
      __builtin_memcpy(&r, p, sizeof r);
      out->op = kind == kRecHeapAlloc   ? kHeapMalloc
                : kind == kRecHeapMmap  ? kHeapMmap
                : kind == kRecHeapMunmap ? kHeapMunmap
                                         : kHeapJavaAlloc;
      out->tid = r.tid, out->tstamp_ns = r.tstamp_ns, out->stack_id = r.stack_id;
      out->size = r.size, out->address = r.address;
      return true;
    }
    case kRecHeapJavaSample: {
      HeapAllocRecord r;
      if (size != sizeof r) return false;
      __builtin_memcpy(&r, p, sizeof r);
      out->op = kHeapJavaSample;
      out->tid = r.tid, out->tstamp_ns = r.tstamp_ns, out->stack_id = r.stack_id;
      out->size = r.size, out->interval = r.address;
      return true;
    }
    case kRecHeapFree: {
      HeapFreeRecord r;
      if (size != sizeof r) return false;
      __builtin_memcpy(&r, p, sizeof r);
      out->op = kHeapFree;
      out->tid = r.tid, out->tstamp_ns = r.tstamp_ns, out->address = r.address;
      return true;
    }
    case kRecHeapRealloc: {
      HeapReallocRecord r;
      if (size != sizeof r) return false;
      __builtin_memcpy(&r, p, sizeof r);
      out->op = kHeapRealloc;
      out->tid = r.tid, out->tstamp_ns = r.tstamp_ns, out->stack_id = r.stack_id;
      out->duration_ns = r.duration_ns, out->size = r.size, out->address = r.address;
      out->old_address = r.old_address;
      return true;
    }
    case kRecLegacyHeapEvent: {
      LegacyHeapEventRecord r;
      if (size != sizeof r) return false;
      __builtin_memcpy(&r, p, sizeof r);
      out->op = r.op, out->tid = r.tid, out->tstamp_ns = r.tstamp_ns, out->stack_id = r.stack_id;
      out->duration_ns = r.op == kHeapRealloc ? r.reserved : 0;
      out->size = r.size, out->address = r.address, out->old_address = r.old_address;
      return true;
    }
  }
  return false;
}

enum SyncOp : uint32_t {
  kSyncMutex = 1, kSyncCondWait, kSyncRwlockRead, kSyncRwlockWrite, kSyncSpin,
  kSyncBarrier, kSyncJoin, kSyncSemWait,
};
struct SyncEventRecord {
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;   // when the wait ended (grant time)
  uint64_t stack_id;
  uint32_t op;          // SyncOp
  uint32_t reserved;
  uint64_t wait_ns;
  uint64_t object;      // the lock / condition / thread address
};

enum IoOp : uint32_t {
  kIoOpen = 1, kIoClose, kIoRead, kIoWrite, kIoSeek, kIoSync, kIoDup, kIoPipe, kIoOther,
};
struct IoEventRecord {
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t op;          // IoOp
  int32_t fd;
  uint64_t duration_ns;
  int64_t bytes;        // bytes transferred, or -1 on error
  uint32_t file_id;     // index into the log's "file" events (path of the fd), 0 = unknown
  uint32_t reserved;
};

// ---- MPI trace (collect -m on) ------------------------------------------------------------------
// One record per completed MPI call (format/mpi_functions.h names `function`). Sends, receives
// and bytes follow the manual's accounting (seed-spec §2.5): the buffer sizes given in the call,
// collectives as direct point-to-point transfers among the communicator's comm_size processes.
struct MpiEventRecord {
  uint32_t word;
  uint32_t tid;
  uint64_t tstamp_ns;       // request time: just before the MPI call
  uint64_t stack_id;
  uint32_t function;        // MpiFunction
  int32_t comm_size;        // processes of the call's communicator, 0 if none / unknown
  uint64_t duration_ns;     // request to completion (grant)
  int32_t peer;             // destination / source / root rank, -1 if none
  int32_t tag;              // message tag, -1 if none
  uint32_t sends;           // send operations (packets) this call stands for
  uint32_t receives;        // receive operations
  uint64_t bytes_sent;
  uint64_t bytes_received;
};

// ---- Hardware-counter and dataspace profiling (collect -h, collect -p ...,+) ---------------
// One record per counter overflow (or, for clock profiling with `+`, per clock sample): the
// counter (index into the log's "hwc" lines, in -h order; kHwcClockCounter for clock samples),
// the events it stands for, the sampled PC and the data address when one is known. Where the
// kernel gives no address (no PEBS/IBS/SPE, clock samples), the general registers of the
// interrupted context are kept so the analysis can decode the instruction at `pc` (capstone)
// and compute its memory operand; the collector never decodes (no allocation in the handler).
inline constexpr uint32_t kHwcClockCounter = 0xffffu;
enum HwcAddrSource : uint32_t {
  kHwcAddrNone = 0,      // no dataspace requested for this counter
  kHwcAddrPrecise = 1,   // vaddr from the kernel (PERF_SAMPLE_ADDR: page faults, PEBS, IBS, SPE)
  kHwcAddrRegs = 2,      // regs[] valid: decode the instruction at pc (analysis side)
  kHwcAddrNoContext = 3, // dataspace requested but neither an address nor registers were available
};
inline constexpr uint32_t kHwcFlagLost = 1u;   // counter passed overflow without a sample (collector_lost_hwc_overflow)
inline constexpr uint32_t kHwcFlagFinal = 2u;  // counts since the last overflow at the thread's end (collector_final_counters)
inline constexpr uint32_t kHwcFlagAbort = 4u;  // the counter could not be read: collection stopped (collector_hwc_ABORT)
inline constexpr uint32_t kHwcRegCount = 17;   // x86-64: rax rbx rcx rdx rsi rdi rbp rsp r8..r15 rip
struct HwcEventRecord {
  uint32_t word;        // make_record_word(kRecHwcEvent, sizeof)
  uint32_t tid;
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t counter;     // index of the log's "hwc" line, or kHwcClockCounter
  uint32_t flags;       // kHwcFlag*
  uint64_t value;       // events (clock: nanoseconds) this record stands for
  uint64_t pc;          // sampled PC (the kernel's, else the signal context's)
  uint64_t vaddr;       // effective data address (addr_source == kHwcAddrPrecise)
  uint64_t paddr;       // physical address, 0 if unknown (/proc/self/pagemap)
  uint32_t addr_source; // HwcAddrSource
  int32_t cpu;
  uint64_t regs[kHwcRegCount];  // kHwcAddrRegs; kHwcAddrPrecise too where rip != 0 (stack locals)
};
static_assert(sizeof(HwcEventRecord) == 72 + 8 * kHwcRegCount);

// ---- OpenMP (docs/openmp.md) --------------------------------------------------------------------
// A thread of an OpenMP program is in one of these states when sampled. The collector knows them
// from the runtime: LLVM libomp through OMPT (ompt_get_state, sync-region and mutex callbacks),
// GCC libgomp from its interposed entry points (GOMP_parallel, GOMP_barrier, ...).
enum OmpState : uint32_t {
  kOmpNone = 0,             // not known (no OpenMP runtime seen): analysed as serial work
  kOmpWork = 1,             // serial or parallel work
  kOmpOverhead = 2,         // in the runtime: forking, scheduling, joining
  kOmpIdle = 3,             // a worker between parallel regions
  kOmpImplicitBarrier = 4,  // the barrier at the end of a region or worksharing construct
  kOmpExplicitBarrier = 5,  // #pragma omp barrier
  kOmpReduction = 6,        // reduction
  kOmpLockWait = 7,         // omp_set_lock / omp_set_nest_lock
  kOmpCriticalWait = 8,     // entering a critical section
  kOmpOrderedWait = 9,      // entering an ordered section
  kOmpAtomicWait = 10,      // atomic implemented with a lock
  kOmpTaskWait = 11,        // taskwait / taskgroup
  kOmpStateCount = 12,
};

// A clock sample of a thread of an OpenMP program: ClockSampleRecord's fields, then the thread's
// OpenMP state and the call stack of the fork point of the parallel region it works for (the
// master's call of the runtime, kNoStackId outside any region), from which the analysis roots
// the worker's stack in the user view.
struct ClockSampleOmpRecord {
  uint32_t word;       // make_record_word(kRecClockSampleOmp, sizeof)
  uint32_t tid;
  uint64_t tstamp_ns;
  uint64_t stack_id;
  int32_t cpu;
  uint32_t flags;
  uint64_t ns[kMsCount];
  uint32_t omp_state;  // OmpState
  uint32_t reserved;
  uint64_t fork_stack_id;
};
static_assert(sizeof(ClockSampleOmpRecord) == 104);

// One parallel region, written by its master thread when the region ends ("profile" file).
struct OmpRegionRecord {
  uint32_t word;           // make_record_word(kRecOmpRegion, sizeof)
  uint32_t tid;            // the master thread
  uint64_t tstamp_ns;      // the region's begin (fork)
  uint64_t stack_id;       // the fork point's call stack
  uint64_t duration_ns;    // fork to join
  uint64_t region_id;      // 1, 2, ... per process, in order of begin
  uint64_t parent_id;      // the enclosing region (nested parallelism), 0 at the top level
  uint32_t nthreads;       // threads of the team
  uint32_t runtime;        // 1 = GCC libgomp, 2 = LLVM libomp (OMPT)
};
static_assert(sizeof(OmpRegionRecord) == 56);
inline constexpr uint32_t kOmpRuntimeGomp = 1;
inline constexpr uint32_t kOmpRuntimeOmpt = 2;

// One explicit task (#pragma omp task), written by the thread that ran it when it completes
// ("profile" file). While a thread runs a task, its clock samples carry the task's creation
// stack as their fork stack, so the analysis attributes the task's time to the code that created
// it (the region records and these relate a fork stack to its parent's: docs/openmp.md).
struct OmpTaskRecord {
  uint32_t word;           // make_record_word(kRecOmpTask, sizeof)
  uint32_t tid;            // the thread that ran the task
  uint64_t tstamp_ns;      // the task's first schedule (begin of execution)
  uint64_t stack_id;       // the creation point's call stack (GOMP: the task function as its leaf)
  uint64_t duration_ns;    // first schedule to completion (includes its suspensions)
  uint64_t task_id;        // 1, 2, ... per process, in order of creation
  uint64_t region_id;      // the parallel region of the creating thread, 0 outside any
  uint64_t create_ns;      // when it was created
  uint32_t create_tid;     // the creating thread
  uint32_t runtime;        // kOmpRuntimeGomp / kOmpRuntimeOmpt
};
static_assert(sizeof(OmpTaskRecord) == 64);

// ---- Dynamic functions (collector_func_load) ------------------------------------------------
// "dyntext" is a sequence of entries, one per collector_func_load call: a DyntextHeader, the
// function's code (code_size bytes, then zero padding to a multiple of 8), then nlines
// DyntextLine pairs. The map's "function_load" line (same vaddr and tstamp) names the function.
inline constexpr const char* kDyntextFile = "dyntext";
inline constexpr uint32_t kDyntextMagic = 0x54594444u;  // "DDYT" little-endian
struct DyntextHeader {
  uint32_t magic;      // kDyntextMagic
  uint32_t code_size;  // bytes of code that follow (0 if the code could not be read)
  uint64_t vaddr;
  uint64_t tstamp_ns;  // same as the map line's
  uint32_t nlines;     // DyntextLine entries after the code
  uint32_t size;       // the function's size as declared
};
static_assert(sizeof(DyntextHeader) == 32);
struct DyntextLine {
  uint32_t offset;  // from vaddr; the line covers [offset, next entry's offset)
  uint32_t line;
};
// A JIT's symbol file (/tmp/perf-<pid>.map: "START SIZE name", hex) copied into the experiment
// at the end of the process (or on first open after an abnormal end).
inline constexpr const char* kJitMapFile = "jit.map";
// At most this much of a JIT's symbol file is copied (whole lines); it is taken only if it is
// a regular file of the program's own user with a single name (docs/reliability.md).
inline constexpr uint64_t kJitMapMaxBytes = uint64_t(64) << 20;

}  // namespace erkit::format

// ---- Text files -----------------------------------------------------------------------------
// "log" and "map" are line-oriented text so they can be appended atomically (O_APPEND, one
// write per line) by collect and by every process of the target, and read while being written.
//   line 1: "<kLogMagic> <format-version>"          e.g. "erkit-experiment-log 1"
//   then:   "<tstamp_ns> <event> key=value key="quoted value" ..."
// tstamp_ns is CLOCK_MONOTONIC minus the experiment's start (0 for collect's own lines).
// Quoted values escape backslash, double quote and newline as \\ \" \n. Unknown events and keys
// are ignored by readers of the same major version. A line without a trailing newline is
// incomplete (the writer was killed) and ignored.
namespace erkit::format {
inline constexpr const char* kLogMagic = "erkit-experiment-log";
inline constexpr const char* kMapMagic = "erkit-experiment-map";
// Keys of the exit line that say what recording cost the process (collector_cost.cc).
inline constexpr const char* kCostSignals = "cost_signals";
inline constexpr const char* kCostSignalNs = "cost_signal_ns";
inline constexpr const char* kCostHelperCpuNs = "cost_helper_cpu_ns";
inline constexpr const char* kCostStartCpuNs = "cost_start_cpu_ns";
inline constexpr const char* kCostExitCpuNs = "cost_exit_cpu_ns";
inline constexpr const char* kCostProcessCpuNs = "process_cpu_ns";
// Log events: "collect" (collect's command line and settings), "setting" (name=clock_source
// source=perf_task_clock|posix_timer: what triggers clock samples), "start" (process
// identity), "thread_start", "thread_end", "warning", "pause", "resume", "exit" (collector saw the
// process exit: how=exit|_exit|abort|exec|terminated, status=, bytes=, and what recording cost
// the process: cost_signals= cost_signal_ns= (clock-profiling signals and the time spent in their
// handler), cost_helper_cpu_ns= (CPU of the collector's threads), cost_start_cpu_ns=,
// cost_exit_cpu_ns= (CPU of its start and exit work), process_cpu_ns= (the process's CPU time
// so far, collector included)), "exec_failed" (an exec after
// "exit how=exec" failed: the process goes on), "limit_reached" (-L), "end" (collect saw how the
// target ended), "descendant" (a child: kind= lineage= index= pid= followed= failed=),
// "descendant_of" (first event of a descendant's own log: kind= lineage= parent_pid= target=
// args=), "stopped_after_exec" (-x), "file" (I/O trace paths).
// Map events: "load" path=... bias=0x... lo=0x... hi=0x... buildid=hex, "unload" bias=0x... path=...,
// "function_load" name= alias= source= vaddr= size= lines=, "function_unload" vaddr=.
}  // namespace erkit::format
