// The registry of loaded objects. refresh() (normal context) rebuilds it from dl_iterate_phdr
// into the spare one of two static buffers and publishes it; handlers read the current buffer
// under a per-buffer sequence counter, so a refresh that reuses a buffer while a handler is
// still reading it is detected and the handler retries. Buffers are static and never freed,
// so a stale read can be wrong (and is discarded) but never touches unmapped registry memory.
#include <link.h>
#include <sched.h>

#include "collector/unwind/internal.h"
#include "collector/unwind/unwind.h"

namespace erkit::unwind::internal {
namespace {

struct Snapshot {
  uint32_t count;
  Object objs[kMaxObjects];  // sorted by lo, disjoint
};

Snapshot g_snap[2];
uint64_t g_seq[2];          // odd while the buffer is being rewritten
uint32_t g_current;         // index of the published buffer
uint64_t g_epoch = 1;       // cache epoch
int g_refresh_lock;         // serialises refresh() callers (normal context, may yield)

// Scratch for building (refresh is serialised, so one static copy is enough).
Object g_build[kMaxObjects];
uint16_t g_order[kMaxObjects];
uint32_t g_build_count;

// Parses .eh_frame_hdr; keeps the table only in the one encoding worth a binary search.
void parse_eh_frame_hdr(Object& o) {
  const auto* h = reinterpret_cast<const uint8_t*>(o.hdr);
  if (!o.readable(o.hdr, 4) || h[0] != 1) return;
  const uint8_t eh_ptr_enc = h[1], count_enc = h[2], table_enc = h[3];
  // The header lies in a mapped segment; bound the cursor by that segment.
  uintptr_t seg_end = 0;
  for (uint32_t i = 0; i < o.nsegs; ++i)
    if (o.hdr >= o.segs[i].lo && o.hdr < o.segs[i].hi) seg_end = o.segs[i].hi;
  Cursor c{h + 4, reinterpret_cast<const uint8_t*>(seg_end), true};
  uint64_t eh_frame = 0, count = 0;
  if (!read_encoded(c, eh_ptr_enc, o.hdr, &o, &eh_frame)) return;
  if (count_enc == 0xff || !read_encoded(c, count_enc, o.hdr, &o, &count)) return;
  if (table_enc != 0x3b) return;  // DW_EH_PE_datarel | DW_EH_PE_sdata4
  const auto table = reinterpret_cast<uintptr_t>(c.p);
  if (count == 0 || count > (1u << 28) || !o.readable(table, count * 8)) return;
  o.table = table;
  o.count = uint32_t(count);
}

int add_object(struct dl_phdr_info* info, size_t, void*) {
  if (g_build_count >= uint32_t(kMaxObjects)) return 0;
  Object o{};
  o.bias = info->dlpi_addr;
  o.lo = ~uintptr_t(0);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && ph.p_memsz != 0 && o.nsegs < uint32_t(kMaxSegments)) {
      Segment& s = o.segs[o.nsegs++];
      s.lo = o.bias + ph.p_vaddr;
      s.hi = s.lo + ph.p_memsz;
      s.flags = ph.p_flags;
      if (s.lo < o.lo) o.lo = s.lo;
      if (s.hi > o.hi) o.hi = s.hi;
    } else if (ph.p_type == PT_GNU_EH_FRAME) {
      o.hdr = o.bias + ph.p_vaddr;
    }
  }
  if (o.nsegs == 0) return 0;
  if (o.hdr) parse_eh_frame_hdr(o);
  g_build[g_build_count++] = o;
  return 0;
}

void lock() {
  while (__atomic_exchange_n(&g_refresh_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock() { __atomic_store_n(&g_refresh_lock, 0, __ATOMIC_RELEASE); }

}  // namespace

bool find_object(uintptr_t pc, Object* out) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    const uint32_t idx = __atomic_load_n(&g_current, __ATOMIC_ACQUIRE) & 1u;
    const uint64_t s1 = __atomic_load_n(&g_seq[idx], __ATOMIC_ACQUIRE);
    if (s1 & 1u) continue;
    const Snapshot& snap = g_snap[idx];
    uint32_t n = __atomic_load_n(&snap.count, __ATOMIC_RELAXED);
    if (n > uint32_t(kMaxObjects)) n = 0;
    uint32_t lo = 0, hi = n;  // first object with lo > pc
    while (lo < hi) {
      const uint32_t mid = (lo + hi) / 2;
      if (snap.objs[mid].lo <= pc) lo = mid + 1; else hi = mid;
    }
    bool found = false;
    if (lo > 0 && pc < snap.objs[lo - 1].hi) {
      __builtin_memcpy(out, &snap.objs[lo - 1], sizeof(Object));
      found = true;
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&g_seq[idx], __ATOMIC_RELAXED) == s1) {
      if (found && out->nsegs > uint32_t(kMaxSegments)) return false;  // cannot happen if stable
      return found;
    }
  }
  return false;  // a refresh storm: treat as unknown rather than spin in a handler
}

bool is_code(uintptr_t pc) {
  Object o;
  return find_object(pc, &o) && o.executable(pc);
}

uint64_t cache_epoch() { return __atomic_load_n(&g_epoch, __ATOMIC_ACQUIRE); }

}  // namespace erkit::unwind::internal

namespace erkit::unwind {
using namespace internal;

void refresh() {
  lock();
  g_build_count = 0;
  dl_iterate_phdr(add_object, nullptr);
  // Sort by start address (insertion sort over indices: n is small and this is not hot).
  const uint32_t n = g_build_count;
  for (uint32_t i = 0; i < n; ++i) {
    uint16_t v = uint16_t(i);
    uint32_t j = i;
    while (j > 0 && g_build[g_order[j - 1]].lo > g_build[v].lo) {
      g_order[j] = g_order[j - 1];
      --j;
    }
    g_order[j] = v;
  }
  const uint32_t idx = (__atomic_load_n(&g_current, __ATOMIC_RELAXED) + 1) & 1u;
  __atomic_fetch_add(&g_seq[idx], 1, __ATOMIC_ACQ_REL);  // odd: readers of idx will retry
  __atomic_thread_fence(__ATOMIC_RELEASE);
  Snapshot& snap = g_snap[idx];
  uint32_t out = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Object& o = g_build[g_order[i]];
    if (out > 0 && o.lo < snap.objs[out - 1].hi) continue;  // overlapping: keep the first
    snap.objs[out++] = o;
  }
  __atomic_store_n(&snap.count, out, __ATOMIC_RELAXED);
  __atomic_fetch_add(&g_seq[idx], 1, __ATOMIC_RELEASE);
  __atomic_store_n(&g_current, idx, __ATOMIC_RELEASE);
  __atomic_fetch_add(&g_epoch, 1, __ATOMIC_ACQ_REL);
  unlock();
}

int registered_object_count() {
  const uint32_t idx = __atomic_load_n(&g_current, __ATOMIC_ACQUIRE) & 1u;
  return int(__atomic_load_n(&g_snap[idx].count, __ATOMIC_RELAXED));
}

void flush_cache() { __atomic_fetch_add(&g_epoch, 1, __ATOMIC_ACQ_REL); }

}  // namespace erkit::unwind
