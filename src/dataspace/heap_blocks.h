// Heap blocks as data objects (seed-spec §2.7: "heap EAs -> allocation call site (using
// heap-trace records)"): with the heap trace on (collect -H on), a data address inside a block
// live at the event's time belongs to that block, and the block to the stack it was allocated
// at. Blocks come from malloc/calloc/realloc/memalign and mmap records; free, realloc's old
// block and munmap end them.
#pragma once
#include <cstdint>
#include <vector>

#include "format/experiment_format.h"

namespace erkit::dataspace {

struct HeapQuery {
  uint64_t tstamp_ns = 0;
  uint64_t vaddr = 0;
  size_t event = 0;  // the caller's index, returned with the answer
};

struct HeapHit {
  size_t event = 0;
  uint64_t stack_id = 0;  // the allocation's stack
  uint64_t block = 0, size = 0;
  uint32_t op = 0;        // format::kHeapMalloc, kHeapRealloc or kHeapMmap
};

// The block each query's address fell in at its time (queries with no live block are left
// out), by one pass over the heap trace and the queries in time order.
std::vector<HeapHit> find_heap_blocks(const std::vector<format::HeapEvent>& heap, std::vector<HeapQuery> queries);

}  // namespace erkit::dataspace
