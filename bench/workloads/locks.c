// Lock-heavy: uncontended pthread_mutex_lock/unlock pairs from one thread, so the figure is the
// pure per-call cost of lock tracing (no waiting is ever recorded at a calibrated threshold).
// Usage: locks [units]   (one unit is 3 000 000 lock/unlock pairs, about 10 ms uninstrumented)
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
  long n = bench_units(argc, argv, 100) * 3000000;
  for (long i = 0; i < n; ++i) critical(i);
  bench_sink = g_counter;
  bench_report_count("lock_calls", n);
  bench_report_thread("main");
  return 0;
}
