// CPU-bound, one thread: a few functions with stable stacks (main -> run -> phase_* -> kernel).
// Usage: cpu1 [units]   (one unit is about 10 ms of CPU)
#include "bench_common.h"

__attribute__((noinline)) static unsigned long long kernel(unsigned long long x, long n) {
  for (long i = 0; i < n; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL + (x >> 29);
  return x;
}
__attribute__((noinline)) static unsigned long long phase_mix(unsigned long long x) { return kernel(x, 7000000) ^ 1; }
__attribute__((noinline)) static unsigned long long phase_hash(unsigned long long x) {
  return kernel(x, 3500000) + kernel(x ^ 7, 3500000);
}
__attribute__((noinline)) static void run(long units) {
  unsigned long long x = 1;
  for (long u = 0; u < units; ++u) x = (u & 1) ? phase_mix(x) : phase_hash(x);
  bench_sink = x;
}

int main(int argc, char** argv) {
  run(bench_units(argc, argv, 150));
  bench_report_thread("main");
  return 0;
}
