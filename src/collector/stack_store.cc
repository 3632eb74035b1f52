#include "collector/stack_store.h"

#include <string.h>
#include <sys/mman.h>

#include "collector/data_writer.h"
#include "collector/thread_state.h"
#include "format/experiment_format.h"
#include "format/stack_id.h"

namespace erkit::collector {
namespace {

constexpr uint64_t kTableSlots = 1u << 20;  // 8 MiB of virtual memory, touched as used
constexpr int kMaxProbes = 32;
uint64_t* g_table = nullptr;

// True if the id was already present; inserts it otherwise (best effort).
bool seen_before(uint64_t id) {
  if (!g_table) return false;
  uint64_t slot = id & (kTableSlots - 1);
  for (int i = 0; i < kMaxProbes; ++i) {
    uint64_t* p = &g_table[(slot + uint64_t(i)) & (kTableSlots - 1)];
    uint64_t cur = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    if (cur == id) return true;
    if (cur == 0) {
      uint64_t expected = 0;
      if (__atomic_compare_exchange_n(p, &expected, id, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return false;
      if (expected == id) return true;
    }
  }
  return false;
}

}  // namespace

bool stack_store_init() {
  if (g_table) return true;
  void* p = mmap(nullptr, kTableSlots * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  g_table = static_cast<uint64_t*>(p);
  return true;
}

void stack_store_forget() {
  if (g_table) munmap(g_table, kTableSlots * sizeof(uint64_t));
  g_table = nullptr;
}

uint64_t stack_intern(ThreadState* ts, const uint64_t* pcs, int n, bool truncated) {
  if (n < 0) n = 0;
  if (n > int(format::kMaxStackFrames)) n = int(format::kMaxStackFrames);
  uint64_t id = format::stack_id(pcs, size_t(n), truncated);
  if (seen_before(id)) return id;
  uint32_t nframes = uint32_t(n) + (truncated ? 1u : 0u);
  uint32_t size = uint32_t(sizeof(format::StackRecord)) + nframes * 8u;
  auto* rec = static_cast<format::StackRecord*>(
      record_reserve(ts, format::DataKind::kStacks, format::kRecStack, size));
  if (!rec) {
    record_release(ts);
    return format::kNoStackId;
  }
  rec->nframes = nframes;
  rec->id = id;
  memcpy(rec->pcs, pcs, size_t(n) * 8u);
  if (truncated) rec->pcs[n] = format::kTruncatedMarkerPc;
  record_commit(rec, format::kRecStack, size);
  record_release(ts);
  return id;
}

}  // namespace erkit::collector
