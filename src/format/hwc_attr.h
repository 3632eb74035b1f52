// The perf_event_attr of one counter of collect -h, set up once for both sides: collect probes
// with it (collect/hwc_events.cc), the collector opens the per-thread overflow events with it
// (collector/hwc_profiler.cc). Header-only and freestanding (the collector links no libstdc++).
#pragma once
#include <linux/perf_event.h>

#include <cstdint>

namespace erkit::format {

struct HwcAttrSpec {
  uint32_t type;
  uint64_t config, config1, config2;
  bool exclude_user, exclude_kernel;
  uint32_t precise_ip;  // 0..3
};

// Zeroes *a and sets the counter's fields; disabled, hypervisor excluded. Sampling and read
// formats are the caller's.
inline void hwc_attr_init(perf_event_attr* a, const HwcAttrSpec& s) {
  __builtin_memset(a, 0, sizeof *a);
  a->size = sizeof *a;
  a->type = s.type;
  a->config = s.config;
  a->config1 = s.config1;
  a->config2 = s.config2;
  a->exclude_user = s.exclude_user;
  a->exclude_kernel = s.exclude_kernel;
  a->exclude_hv = 1;
  a->precise_ip = s.precise_ip & 3u;
  a->disabled = 1;
}

}  // namespace erkit::format
