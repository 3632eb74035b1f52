// Heap tracing (-H on): the recorders the generated malloc-family wrappers call, and the
// bootstrap arena that serves allocations while the real allocator is not yet known (dlsym,
// which resolves it, itself calls calloc).
//
// Ordering rule, so that leaks can be derived exactly from events of many threads: a block's
// release is stamped before the real call frees it, its allocation after the real call returned
// it; an address is therefore always released (in time) before it is handed out again.
// Async-signal-safe: every function here except heap_trace_init().
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "collector/interposer_support.h"

namespace erkit::collector {

void heap_trace_init();

// Recorders (after the real call; `t.start_ns` was taken before it).
void heap_alloc(const TraceCall& t, uint64_t size, const void* result);
void heap_free(const TraceCall& t, const void* block);
void heap_realloc(const TraceCall& t, const void* old_block, uint64_t size, const void* result);
void heap_mmap(const TraceCall& t, uint64_t length, const void* result);
void heap_munmap(const TraceCall& t, const void* addr, uint64_t length, int rc);
void heap_mremap(const TraceCall& t, const void* old_addr, uint64_t new_length, const void* result);

// Saturating a * b, for calloc and reallocarray sizes.
inline uint64_t heap_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

// The bootstrap arena: a static region carved with an atomic bump pointer; its blocks are never
// reused, free() ignores them and realloc() moves them to the real allocator.
bool heap_in_bootstrap(const void* p);
void* heap_bootstrap_alloc(size_t size, size_t align);
void* heap_bootstrap_calloc(size_t count, size_t size);
void* heap_bootstrap_realloc(void* p, size_t size);
int heap_bootstrap_memalign(void** out, size_t align, size_t size);

}  // namespace erkit::collector
