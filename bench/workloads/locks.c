// Lock-heavy: uncontended pthread_mutex_lock/unlock pairs from one thread, so the figure is the
// pure per-call cost of lock tracing (no waiting is ever recorded at a calibrated threshold).
// Usage: locks [units] [pairs-per-unit]   (default 3 000 000 pairs per unit, about 10 ms
//        uninstrumented; tracing runs that record every call use fewer)
// link: -lpthread
#include <pthread.h>

#include "bench_common.h"

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long g_counter;

__attribute__((noinline)) static void critical(long i) {
  pthread_mutex_lock(&g_mutex);
  g_counter += (unsigned long long)i;
  pthread_mutex_unlock(&g_mutex);
}

int main(int argc, char** argv) {
  long per_unit = argc > 2 ? atol(argv[2]) : 3000000;
  if (per_unit <= 0) {
    fprintf(stderr, "locks: pairs per unit must be a positive integer\n");
    return 2;
  }
  long n = bench_units(argc, argv, 100) * per_unit;
  for (long i = 0; i < n; ++i) critical(i);
  bench_sink = g_counter;
  bench_report_count("lock_calls", n);
  bench_report_thread("main");
  return 0;
}
