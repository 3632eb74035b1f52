// Allocation-heavy: malloc/free pairs of varied sizes with 256 blocks alive, the pattern heap
// tracers are judged by. Reports the number of allocations so costs can be given per call.
// Usage: mallocs [units]   (one unit is 200 000 allocations, about 10 ms uninstrumented)
#include "bench_common.h"

int main(int argc, char** argv) {
  long n = bench_units(argc, argv, 100) * 200000;
  void* live[256] = {0};
  unsigned seed = 1;
  for (long i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    size_t size = 16 + ((seed >> 8) & 2047);
    unsigned slot = (seed >> 20) & 255;
    free(live[slot]);
    char* p = malloc(size);
    if (!p) return 1;
    p[0] = (char)i;  // touch it, as real code would
    live[slot] = p;
  }
  for (int i = 0; i < 256; ++i) free(live[i]);
  bench_report_count("allocations", n);
  bench_report_thread("main");
  return 0;
}
