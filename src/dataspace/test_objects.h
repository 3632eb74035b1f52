// Globals of known layout in the dataspace tests' own binary (built with -g): the DWARF and
// dataspace tests map addresses to them.
#pragma once
#include <link.h>

#include <cstddef>
#include <cstdint>

struct ds_rec_t {
  int a;
  double b;
  const char* name;
};
extern ds_rec_t ds_test_recs[16];
extern long ds_test_scalar;

// The load bias of the test executable (link-time address = runtime address - bias).
inline uint64_t test_objects_bias() {
  uint64_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* arg) {
        *static_cast<uint64_t*>(arg) = info->dlpi_addr;
        return 1;  // the executable comes first
      },
      &bias);
  return bias;
}
