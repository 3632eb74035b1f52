#include "collector/heap_trace.h"

#include <string.h>
#include <sys/mman.h>

#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {


// ---- bootstrap arena ------------------------------------------------------------------------
// dlsym needs a few hundred bytes; later failed lookups a little more each. 256 KiB of .bss
// costs nothing until touched.
constexpr size_t kArenaSize = 256 * 1024;
constexpr size_t kHeader = 16;  // each block is preceded by its size (for realloc)
alignas(4096) char g_arena[kArenaSize];
size_t g_arena_used = 0;  // atomic

// One instance per operation: the record kind and size are constants and encode_heap_record
// folds to the stores of that record's fields.
template <uint32_t op>
void write_event(const TraceCall* t, uint64_t tstamp, uint64_t size, const void* addr, const void* old,
                 uint32_t duration, bool with_stack) {
  TraceWriter w = trace_enter();
  if (!w.ts) return;
  format::HeapEvent e;
  e.tstamp_ns = tstamp;
  e.stack_id = with_stack ? trace_stack(w.ts, *t) : format::kNoStackId;
  e.size = size;
  e.address = reinterpret_cast<uint64_t>(addr);
  e.old_address = reinterpret_cast<uint64_t>(old);
  e.tid = w.ts->tid;
  e.op = op;
  e.duration_ns = duration;
  // The compact record for op: a free is 24 bytes, an allocation 40 (bytes written are most of
  // the tracer's cost: page-cache zeroing and faults of the mapped blocks).
  constexpr uint32_t kind = format::heap_record_kind(op), rsize = format::heap_record_size(op);
  static_assert(kind != 0 && rsize != 0);
  void* rec = record_reserve(w.ts, format::DataKind::kHeap, kind, rsize);
  if (rec) {
    format::encode_heap_record(e, rec);
    record_commit(rec, kind, rsize);
  }
  record_release(w.ts);
  trace_exit(w);
}

uint32_t saturate32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : uint32_t(v); }

}  // namespace

void heap_trace_init() {
  __atomic_store_n(&g_trace_on[kTraceHeap], g_rt.config.heap_trace ? 1 : 0, __ATOMIC_RELEASE);
}

// Allocation and release events carry the call stack of the allocation only: leaks and
// allocation lists are attributed to where blocks were allocated.
void heap_alloc(const TraceCall& t, uint64_t size, const void* result) {
  if (result) write_event<format::kHeapMalloc>(&t, now_ns(), size, result, nullptr, 0, true);
}

void heap_free(const TraceCall& t, const void* block) {
  if (block) write_event<format::kHeapFree>(&t, t.start_ns, 0, block, nullptr, 0, false);
}

// A moved block is released during the call, its successor obtained by its end: the record is
// stamped at the end and `reserved` holds the call's duration, so readers can place the release
// at its start (see the ordering rule in the header).
void heap_realloc(const TraceCall& t, const void* old_block, uint64_t size,
                                            const void* result) {
  if (!old_block) return heap_alloc(t, size, result);
  if (!result) {
    // realloc(p, 0) freed p; any other null result is a failure that left p allocated.
    if (size == 0) heap_free(t, old_block);
    return;
  }
  uint64_t end = now_ns();
  write_event<format::kHeapRealloc>(&t, end, size, result, old_block, saturate32(end - t.start_ns), true);
}

void heap_mmap(const TraceCall& t, uint64_t length, const void* result) {
  if (result != MAP_FAILED) write_event<format::kHeapMmap>(&t, now_ns(), length, result, nullptr, 0, true);
}

void heap_munmap(const TraceCall& t, const void* addr, uint64_t length, int rc) {
  if (rc == 0) write_event<format::kHeapMunmap>(&t, t.start_ns, length, addr, nullptr, 0, false);
}

void heap_mremap(const TraceCall& t, const void* old_addr, uint64_t new_length,
                                           const void* result) {
  if (result == MAP_FAILED) return;
  uint64_t end = now_ns();
  write_event<format::kHeapRealloc>(&t, end, new_length, result, old_addr, saturate32(end - t.start_ns), true);
}

// ---- bootstrap arena ------------------------------------------------------------------------

bool heap_in_bootstrap(const void* p) {
  auto a = reinterpret_cast<uintptr_t>(p);
  auto lo = reinterpret_cast<uintptr_t>(g_arena);
  return a >= lo && a < lo + kArenaSize;
}

void* heap_bootstrap_alloc(size_t size, size_t align) {
  if (align < kHeader) align = kHeader;
  if (align & (align - 1)) return nullptr;
  auto base = reinterpret_cast<uintptr_t>(g_arena);
  size_t used = __atomic_load_n(&g_arena_used, __ATOMIC_RELAXED);
  for (;;) {
    uintptr_t start = (base + used + kHeader + align - 1) & ~uintptr_t(align - 1);
    size_t end = start - base + size;
    if (size > kArenaSize || end > kArenaSize) return nullptr;
    if (__atomic_compare_exchange_n(&g_arena_used, &used, end, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      *reinterpret_cast<uint64_t*>(start - kHeader) = size;
      return reinterpret_cast<void*>(start);  // .bss is zeroed and never reused: calloc-ready
    }
  }
}

void* heap_bootstrap_calloc(size_t count, size_t size) {
  uint64_t n = heap_mul(count, size);
  return n == UINT64_MAX ? nullptr : heap_bootstrap_alloc(n, 16);
}

int heap_bootstrap_memalign(void** out, size_t align, size_t size) {
  void* p = heap_bootstrap_alloc(size, align);
  if (!p) return 12;  // ENOMEM
  *out = p;
  return 0;
}

void* heap_bootstrap_realloc(void* p, size_t size) {
  // Prefer the real allocator once it is known; the arena block stays where it is.
  void* (*real_malloc)(size_t) = __atomic_load_n(&real::malloc_any, __ATOMIC_ACQUIRE);
  void* q = real_malloc ? real_malloc(size) : heap_bootstrap_alloc(size, 16);
  if (q && heap_in_bootstrap(p)) {
    uint64_t old = *reinterpret_cast<uint64_t*>(static_cast<char*>(p) - kHeader);
    memcpy(q, p, old < size ? old : size);
  }
  return q;
}

}  // namespace erkit::collector
