// Reading a perf_event mmap ring buffer: one loop for er_kernel's events and for collect's
// per-thread clocks of an attached process.
#pragma once

#include <linux/perf_event.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace erkit::common {

// Hands every complete PERF_RECORD_SAMPLE in the ring to on_sample(misc, payload, size) (the
// payload follows the record's header; a record that wraps the ring's end is copied into
// `scratch` first), advances the ring's tail past what was read, and returns how many records the
// kernel reported lost. `ring` is the whole mapping of `ring_bytes`, the data area its last
// `data_bytes` (a power of two).
template <class OnSample>
uint64_t drain_perf_ring(void* ring, size_t ring_bytes, size_t data_bytes, std::vector<uint8_t>& scratch,
                         OnSample&& on_sample) {
  auto* meta = static_cast<perf_event_mmap_page*>(ring);
  const uint8_t* data = static_cast<const uint8_t*>(ring) + (ring_bytes - data_bytes);
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  uint64_t lost = 0;
  while (tail + sizeof(perf_event_header) <= head) {
    perf_event_header h;
    for (size_t i = 0; i < sizeof h; ++i) reinterpret_cast<uint8_t*>(&h)[i] = data[(tail + i) % data_bytes];
    if (h.size < sizeof h || tail + h.size > head) break;
    scratch.resize(h.size);
    size_t off = size_t(tail % data_bytes);
    size_t first = std::min<size_t>(h.size, data_bytes - off);
    std::memcpy(scratch.data(), data + off, first);
    if (first < h.size) std::memcpy(scratch.data() + first, data, h.size - first);
    if (h.type == PERF_RECORD_SAMPLE) {
      on_sample(h.misc, scratch.data() + sizeof h, size_t(h.size - sizeof h));
    } else if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16) {
      uint64_t n;
      std::memcpy(&n, scratch.data() + sizeof h + 8, 8);
      lost += n;
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
  return lost;
}

}  // namespace erkit::common
