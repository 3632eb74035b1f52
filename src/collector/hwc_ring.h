// Reading a perf event's ring buffer (the data pages after perf_event_mmap_page): the records
// between tail and head, wrapping at the end. Freestanding and allocation-free: the collector's
// overflow handler uses it, and host unit tests feed it synthesized rings (PEBS/IBS/SPE
// samples with data addresses cannot be produced on a machine without a PMU).
#pragma once
#include <linux/perf_event.h>
#include <stdint.h>

namespace erkit::collector {

struct HwcRingRecord {
  uint32_t type;    // PERF_RECORD_SAMPLE or PERF_RECORD_LOST (others are skipped)
  uint64_t ip;      // sample: PERF_SAMPLE_IP
  uint64_t addr;    // sample: PERF_SAMPLE_ADDR when the event has it, else 0
  uint64_t period;  // sample: PERF_SAMPLE_PERIOD
  uint64_t lost;    // lost: number of records lost
};

inline void hwc_ring_copy(const char* data, uint64_t size, uint64_t pos, void* dst, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) static_cast<char*>(dst)[i] = data[(pos + i) & (size - 1)];
}

// Calls fn(const HwcRingRecord&) for each sample and lost record in [tail, head) of `data`
// (`size` bytes, a power of two); the samples were opened with sample_type IP | [ADDR |] PERIOD.
// Returns the new tail: after the last complete record.
template <class Fn>
uint64_t hwc_ring_walk(const char* data, uint64_t size, uint64_t tail, uint64_t head, bool has_addr, Fn fn) {
  while (tail + sizeof(perf_event_header) <= head) {
    perf_event_header h;
    hwc_ring_copy(data, size, tail, &h, sizeof h);
    if (h.size < sizeof h || tail + h.size > head) break;
    HwcRingRecord r{};
    r.type = h.type;
    if (h.type == PERF_RECORD_SAMPLE) {
      uint64_t f[3] = {};
      uint64_t n = has_addr ? 3 : 2;
      if (sizeof h + n * 8 <= h.size) {
        hwc_ring_copy(data, size, tail + sizeof h, f, n * 8);
        r.ip = f[0];
        r.addr = has_addr ? f[1] : 0;
        r.period = has_addr ? f[2] : f[1];
        fn(r);
      }
    } else if (h.type == PERF_RECORD_LOST && sizeof h + 16 <= h.size) {
      uint64_t lost[2] = {};  // id, lost
      hwc_ring_copy(data, size, tail + sizeof h, lost, sizeof lost);
      r.lost = lost[1];
      fn(r);
    }
    tail += h.size;
  }
  return tail;
}

}  // namespace erkit::collector
