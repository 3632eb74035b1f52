// CPU-bound, four worker threads (more threads than the 2 cores of the benchmark machines, so
// fidelity must hold for threads that also wait for a CPU).
// Usage: cpu4 [units]   (units per thread; one unit is about 10 ms of CPU)
// link: -lpthread
#include <pthread.h>

#include "bench_common.h"

__attribute__((noinline)) static unsigned long long kernel(unsigned long long x, long n) {
  for (long i = 0; i < n; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL + (x >> 29);
  return x;
}
__attribute__((noinline)) static unsigned long long step(unsigned long long x) { return kernel(x, 7000000) + 3; }

static long g_units;

static void* worker(void* arg) {
  unsigned long long x = (unsigned long long)(long)arg;
  for (long u = 0; u < g_units; ++u) x = step(x);
  bench_sink = x;
  bench_report_thread("worker");
  return NULL;
}

int main(int argc, char** argv) {
  g_units = bench_units(argc, argv, 75);
  pthread_t t[4];
  for (long i = 0; i < 4; ++i)
    if (pthread_create(&t[i], NULL, worker, (void*)(i + 1)) != 0) return 1;
  for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
  bench_report_thread("main");
  return 0;
}
