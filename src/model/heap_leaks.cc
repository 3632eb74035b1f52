#include "model/heap_leaks.h"

#include <algorithm>
#include <unordered_map>

namespace erkit::model {

bool heap_allocates(const format::HeapEvent& h) {
  // A Java object (JVMTI) has no address that lasts (the GC moves it): an allocation all the same.
  if (h.op == format::kHeapJavaAlloc || h.op == format::kHeapJavaSample) return true;
  return (h.op == format::kHeapMalloc || h.op == format::kHeapRealloc || h.op == format::kHeapMmap) &&
         h.address != 0;
}

std::vector<bool> leaked_allocations(const std::vector<format::HeapEvent>& events) {
  struct Action {
    uint64_t t;
    bool release;  // releases sort before acquisitions at the same time
    uint32_t index;
    uint64_t address;
  };
  std::vector<Action> actions;
  actions.reserve(events.size() + events.size() / 4);
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& h = events[i];
    auto idx = uint32_t(i);
    switch (h.op) {
      case format::kHeapFree:
      case format::kHeapMunmap:
        if (h.address) actions.push_back({h.tstamp_ns, true, idx, h.address});
        break;
      case format::kHeapRealloc:
        if (h.old_address) {
          uint64_t start = h.tstamp_ns >= h.duration_ns ? h.tstamp_ns - h.duration_ns : 0;
          actions.push_back({start, true, idx, h.old_address});
        }
        break;
      default:
        break;
    }
    // Java objects are freed by the collector of the JVM, unseen: never leaks.
    if (heap_allocates(h) && h.op != format::kHeapJavaAlloc && h.op != format::kHeapJavaSample) actions.push_back({h.tstamp_ns, false, idx, h.address});
  }
  auto before = [](const Action& a, const Action& b) {
    if (a.t != b.t) return a.t < b.t;
    return a.release && !b.release;
  };
  // The events are in time order already: without reallocs (whose release is dated at the
  // call's start) the actions usually are too, and a sort's buffer of 20 M actions is 600 MB.
  if (!std::is_sorted(actions.begin(), actions.end(), before))
    std::stable_sort(actions.begin(), actions.end(), before);
  std::unordered_map<uint64_t, uint32_t> live;  // address -> allocating event
  live.reserve(1024);
  for (const Action& a : actions) {
    if (a.release) live.erase(a.address);
    else live[a.address] = a.index;
  }
  std::vector<bool> leaked(events.size(), false);
  for (const auto& [addr, i] : live) leaked[i] = true;
  return leaked;
}

}  // namespace erkit::model
