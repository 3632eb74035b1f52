#include "collector/data_writer.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "format/record_descriptors.h"
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

char* new_block(DataKind k) {
  DataFile& f = g_files[uint32_t(k)];
  if (f.fd < 0) return nullptr;
  if (counts_toward_limit(k) && g_limit_blocks) {
    uint64_t total = __atomic_add_fetch(&g_total_blocks, 1, __ATOMIC_RELAXED);
    if (total > g_limit_blocks) {
      __atomic_store_n(&g_limit_reached, 1, __ATOMIC_RELAXED);
      return nullptr;
    }
  }
  uint64_t idx = __atomic_fetch_add(&f.next_block, 1, __ATOMIC_RELAXED);
  off_t off = off_t(format::kHeaderSize + idx * format::kBlockSize);
  // Extending by writing the block's last byte never shrinks the file, whatever order
  // concurrent threads run in; the hole reads as zeros, which is "end of block".
  char zero = 0;
  if (pwrite(f.fd, &zero, 1, off + format::kBlockSize - 1) != 1) return nullptr;
  void* p = mmap(nullptr, format::kBlockSize, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, off);
  return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

bool write_header(int fd, DataKind k) {
  format::FileHeader h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, format::kFileMagic, sizeof h.magic);
  h.format_version = format::kFormatVersion;
  h.header_size = format::kHeaderSize;
  h.block_size = format::kBlockSize;
  h.data_kind = uint32_t(k);
  h.endian_check = format::kEndianCheck;
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  h.created_ns = uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
  const char* desc = format::record_descriptor_text(k);
  size_t n = strlen(desc);
  if (n >= sizeof h.descriptor) n = sizeof h.descriptor - 1;
  memcpy(h.descriptor, desc, n);
  return pwrite(fd, &h, sizeof h, 0) == ssize_t(sizeof h);
}

}  // namespace

bool data_files_open(const char* dir, uint64_t size_limit_bytes) {
  g_limit_blocks = size_limit_bytes ? (size_limit_bytes + format::kBlockSize - 1) / format::kBlockSize : 0;
  for (uint32_t k = 0; k < kKinds; ++k) {
    char path[4096];
    size_t dl = strlen(dir);
    const char* name = format::kDataFileNames[k];
    if (dl + strlen(name) + 2 > sizeof path) return false;
    memcpy(path, dir, dl);
    path[dl] = '/';
    strcpy(path + dl + 1, name);
    // Files are created lazily by nobody else; create all now so the reader sees every kind.
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    if (!write_header(fd, DataKind(k))) {
      close(fd);
      return false;
    }
    g_files[k].fd = fd;
    g_files[k].next_block = 0;
  }
  return true;
}

void data_files_close() {
  for (uint32_t k = 0; k < kKinds; ++k) {
    if (g_files[k].fd >= 0) close(g_files[k].fd);
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

void data_thread_retire(ThreadState* ts) {
  for (auto& level : ts->cursors) {
    for (auto& c : level) {
      if (c.block) munmap(c.block, format::kBlockSize);
      c.block = nullptr;
      c.used = 0;
    }
  }
}

}  // namespace erkit::collector
