#include "collector/data_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "format/record_descriptors.h"
#include "collector/fd_guard.h"
#include "collector/fd_owned.h"
#include "collector/runtime.h"
#include "collector/thread_state.h"

namespace erkit::collector {
namespace {

using format::DataKind;
constexpr uint32_t kKinds = uint32_t(DataKind::kCount);

struct DataFile {
  int fd = -1;
  uint64_t next_block = 0;  // atomic: blocks handed out so far
};

DataFile g_files[kKinds];
uint64_t g_limit_blocks = 0;   // 0: unlimited
uint64_t g_total_blocks = 0;   // atomic, event files only
int g_limit_reached = 0;       // atomic

// Overview (samples) and stacks keep going after the limit: samples by the manual's rule, and
// stacks because retained records may still reference them.
bool counts_toward_limit(DataKind k) { return k != DataKind::kOverview && k != DataKind::kStacks; }

int g_out_of_space = 0;         // atomic: a block could not be backed by disk space

// Gives the block [off, off + kBlockSize) real disk space, extending the file if needed (never
// shrinking it, whatever order concurrent threads run in; unwritten bytes read as zeros, which
// is "end of block"). A MAP_SHARED page without backing store raises SIGBUS in the target when
// first written, so a block is only mapped once its space is allocated. errno is preserved:
// this runs inside signal handlers and interposers.
char g_zero_block[format::kBlockSize];  // never written: .bss, the source of zero fills
bool reserve_block(int fd, off_t off) {
  // A file-size limit (ulimit -f) would answer with SIGXFSZ, which kills the target: treat
  // reaching it as running out of space.
  rlimit fsize;
  if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY &&
      uint64_t(off) + format::kBlockSize > uint64_t(fsize.rlim_cur))
    return false;
  int saved_errno = errno;
  int r;
  do r = fallocate(fd, 0, off, format::kBlockSize); while (r != 0 && errno == EINTR);
  if (r != 0 && errno == EOPNOTSUPP) {
    // File systems without fallocate: writing zeros allocates the space just as well.
    r = pwrite(fd, g_zero_block, format::kBlockSize, off) == ssize_t(format::kBlockSize) ? 0 : -1;
  }
  errno = saved_errno;
  return r == 0;
}

char* new_block(DataKind k) {
  DataFile& f = g_files[uint32_t(k)];
  if (f.fd < 0) return nullptr;
  if (counts_toward_limit(k) && g_limit_blocks) {
    uint64_t total = __atomic_add_fetch(&g_total_blocks, 1, __ATOMIC_RELAXED);
    if (total > g_limit_blocks) {
      if (__atomic_exchange_n(&g_limit_reached, 1, __ATOMIC_RELAXED) == 0)
        on_data_limit_reached(g_limit_blocks * format::kBlockSize);
      return nullptr;
    }
  }
  if (__atomic_load_n(&g_out_of_space, __ATOMIC_RELAXED)) return nullptr;
  // The program may have closed or reused the descriptor's number (fd_guard.h).
  int fd = fd_guard_resolve(f.fd);
  if (fd < 0) return nullptr;
  uint64_t idx = __atomic_fetch_add(&f.next_block, 1, __ATOMIC_RELAXED);
  off_t off = off_t(format::kHeaderSize + idx * format::kBlockSize);
  if (!reserve_block(fd, off)) {
    // Reliability fix (issue 11): a full file system used to kill the target with SIGBUS on
    // its first write to an unbacked page. Now recording stops and the log says why.
    if (!__atomic_exchange_n(&g_out_of_space, 1, __ATOMIC_RELAXED))
      log_warning("out_of_space", "the experiment's data files cannot grow (file system full or file-size "
                                  "limit): event recording stopped");
    return nullptr;
  }
  void* p = mmap(nullptr, format::kBlockSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
  if (p == MAP_FAILED) return nullptr;
  // One system call makes every page of the block writable, instead of 16 write faults as records
  // fill it (kernels before 5.14 answer EINVAL: the faults then happen as before).
  int saved_errno = errno;
  madvise(p, format::kBlockSize, MADV_POPULATE_WRITE);
  errno = saved_errno;
  return static_cast<char*>(p);
}

// "hwcounters" only where counters are asked for (collect -h, or -p on,+: both set ERKIT_HWC,
// which hwc_profiler.cc reads): every other experiment has no such file (issue 18; the reader
// accepts both the older experiments' header-only file and none).
bool kind_wanted(DataKind k) {
  if (k != DataKind::kHwc) return true;
  const char* env = getenv("ERKIT_HWC");
  return env && *env;
}

bool write_header(int fd, DataKind k) {
  format::FileHeader h = format::make_file_header(k);  // the one header maker (issue 18)
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  h.created_ns = uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
  return pwrite(fd, &h, sizeof h, 0) == ssize_t(sizeof h);
}

}  // namespace

bool data_files_open(const char* dir, uint64_t size_limit_bytes) {
  g_limit_blocks = size_limit_bytes ? (size_limit_bytes + format::kBlockSize - 1) / format::kBlockSize : 0;
  __atomic_store_n(&g_total_blocks, 0, __ATOMIC_RELAXED);  // per experiment (a forked child's own)
  __atomic_store_n(&g_limit_reached, 0, __ATOMIC_RELAXED);
  for (uint32_t k = 0; k < kKinds; ++k) {
    g_files[k].fd = -1;
    g_files[k].next_block = 0;
    if (!kind_wanted(DataKind(k))) continue;  // new_block answers nullptr for it
    char path[4096];
    size_t dl = strlen(dir);
    const char* name = format::kDataFileNames[k];
    if (dl + strlen(name) + 2 > sizeof path) return false;
    memcpy(path, dir, dl);
    path[dl] = '/';
    strcpy(path + dl + 1, name);
    // Files are created lazily by nobody else; create every wanted kind now.
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, experiment_file_mode(dir));
    if (fd < 0) return false;
    if (!write_header(fd, DataKind(k))) {
      close(fd);
      return false;
    }
    g_files[k].fd = fd;
    g_files[k].next_block = 0;
    fd_guard_add(&g_files[k].fd, path, O_RDWR);
  }
  return true;
}

void data_files_close() {
  for (uint32_t k = 0; k < kKinds; ++k) {
    if (g_files[k].fd >= 0) fd_release(g_files[k].fd);
    g_files[k].fd = -1;
  }
}

bool data_limit_reached() { return __atomic_load_n(&g_limit_reached, __ATOMIC_RELAXED) != 0; }

uint64_t data_bytes_written() {
  uint64_t blocks = 0;
  for (uint32_t k = 0; k < kKinds; ++k) blocks += __atomic_load_n(&g_files[k].next_block, __ATOMIC_RELAXED);
  return blocks * format::kBlockSize;
}

void* record_reserve(ThreadState* ts, DataKind data_kind, uint32_t kind, uint32_t size) {
  if (!ts) return nullptr;
  // A signal arriving between the load and the store runs to completion (restoring the depth)
  // before this thread continues, so the increment needs no atomic read-modify-write.
  int depth = ts->writer_depth;
  ts->writer_depth = depth + 1;
  if (depth >= kMaxNesting || size > format::kBlockSize || (size & 7)) return nullptr;
  BlockCursor& c = ts->cursors[depth][uint32_t(data_kind)];
  if (!c.block || c.used + size > format::kBlockSize) {
    if (c.block) munmap(c.block, format::kBlockSize);
    c.block = new_block(data_kind);
    c.used = 0;
    if (data_kind == DataKind::kProfile) ts->clock_base[depth] = format::ClockCompactBase{};
    if (!c.block) return nullptr;
  }
  char* rec = c.block + c.used;
  c.used += size;
  __atomic_store_n(reinterpret_cast<uint32_t*>(rec),
                   format::make_record_word(kind, size) | format::kIncompleteBit, __ATOMIC_RELAXED);
  return rec;
}

void record_commit(void* record, uint32_t kind, uint32_t size) {
  __atomic_store_n(static_cast<uint32_t*>(record), format::make_record_word(kind, size),
                   __ATOMIC_RELEASE);
}

void record_release(ThreadState* ts) {
  if (ts) ts->writer_depth--;
}

bool record_write_clock_compact(ThreadState* ts, const format::ClockFields& f) {
  if (!ts) return false;
  int depth = ts->writer_depth;  // as record_reserve: a signal restores it before we continue
  ts->writer_depth = depth + 1;
  bool written = false;
  if (depth < kMaxNesting) {
    BlockCursor& c = ts->cursors[depth][uint32_t(DataKind::kProfile)];
    alignas(8) uint8_t buf[format::kClockCompactMaxSize];
    format::ClockCompactBase base = ts->clock_base[depth];
    uint32_t size = c.block ? format::encode_clock_compact(&base, f, buf) : format::kBlockSize;
    if (!c.block || c.used + size > format::kBlockSize) {
      // A new block: the record is encoded again against the zero base every block starts from.
      if (c.block) munmap(c.block, format::kBlockSize);
      c.block = new_block(DataKind::kProfile);
      c.used = 0;
      base = format::ClockCompactBase{};
      if (c.block) size = format::encode_clock_compact(&base, f, buf);
    }
    if (c.block) {
      uint32_t* word = reinterpret_cast<uint32_t*>(c.block + c.used);
      // Incomplete first, body, then the final word with release order (as record_commit).
      __atomic_store_n(word, format::make_record_word(format::kRecClockCompact, size) | format::kIncompleteBit,
                       __ATOMIC_RELAXED);
      memcpy(c.block + c.used + 4, buf + 4, size - 4);
      c.used += size;
      ts->clock_base[depth] = base;
      record_commit(word, format::kRecClockCompact, size);
      written = true;
    }
  }
  ts->writer_depth = depth;
  return written;
}

void data_thread_retire(ThreadState* ts) {
  for (auto& level : ts->cursors) {
    for (auto& c : level) {
      if (c.block) munmap(c.block, format::kBlockSize);
      c.block = nullptr;
      c.used = 0;
    }
  }
  for (auto& b : ts->clock_base) b = format::ClockCompactBase{};
}

}  // namespace erkit::collector
