#include "dataspace/heap_blocks.h"

#include <algorithm>
#include <map>

namespace erkit::dataspace {
namespace {

struct Live {
  uint64_t size;
  uint64_t stack_id;
  uint32_t op;
};

}  // namespace

std::vector<HeapHit> find_heap_blocks(const std::vector<format::HeapEvent>& heap, std::vector<HeapQuery> queries) {
  std::vector<const format::HeapEvent*> events;
  events.reserve(heap.size());
  for (const auto& h : heap) events.push_back(&h);
  std::stable_sort(events.begin(), events.end(),
                   [](const format::HeapEvent* a, const format::HeapEvent* b) { return a->tstamp_ns < b->tstamp_ns; });
  std::stable_sort(queries.begin(), queries.end(),
                   [](const HeapQuery& a, const HeapQuery& b) { return a.tstamp_ns < b.tstamp_ns; });
  std::map<uint64_t, Live> live;  // by start address
  std::vector<HeapHit> hits;
  size_t next = 0;
  auto apply = [&](const format::HeapEvent& h) {
    switch (h.op) {
      case format::kHeapMalloc:
      case format::kHeapMmap:
        if (h.address && h.size) live[h.address] = {h.size, h.stack_id, h.op};
        break;
      case format::kHeapFree: live.erase(h.address); break;
      case format::kHeapRealloc:
        if (h.old_address) live.erase(h.old_address);
        if (h.address && h.size) live[h.address] = {h.size, h.stack_id, h.op};
        break;
      case format::kHeapMunmap: {
        // Every mapping inside the unmapped range ends (a partial unmap ends the whole block).
        uint64_t end = h.address + h.size;
        auto it = live.lower_bound(h.address);
        if (it != live.begin()) {
          auto prev = std::prev(it);
          if (prev->second.op == format::kHeapMmap && prev->first + prev->second.size > h.address) it = prev;
        }
        while (it != live.end() && it->first < end) {
          if (it->second.op == format::kHeapMmap) it = live.erase(it);
          else ++it;
        }
        break;
      }
      default: break;
    }
  };
  for (const auto& q : queries) {
    // Events up to the query's time (a block allocated at the same nanosecond is live).
    while (next < events.size() && events[next]->tstamp_ns <= q.tstamp_ns) apply(*events[next++]);
    auto it = live.upper_bound(q.vaddr);
    if (it == live.begin()) continue;
    --it;
    if (q.vaddr < it->first + it->second.size)
      hits.push_back({q.event, it->second.stack_id, it->first, it->second.size, it->second.op});
  }
  return hits;
}

}  // namespace erkit::dataspace
