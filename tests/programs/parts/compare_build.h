/* One program built twice (compare_build_1x.c, compare_build_2x.c): two() runs TWO_TIMES
   as many iterations as one(), so between the builds two()'s time changes by exactly 2x and
   one()'s not at all. With a second argument, the thread CPU time each call took
   (CLOCK_THREAD_CPUTIME_ID) is written to that file as "one <ns>" and "two <ns>": the test
   compares er_print's compare mode with what the kernel measured. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

#define SPIN(m)                                                                 \
  do {                                                                          \
    long m_ = (m);                                                              \
    double x = 0;                                                               \
    for (long i = 0; i < m_; i++) x += (double)i * 0.5;                         \
    sink = x;                                                                   \
    __asm__ volatile("" ::: "memory"); /* a real call: no tail-call merging */ \
  } while (0)

__attribute__((noinline, aligned(64))) void one(long n) { SPIN(n); }

__attribute__((noinline, aligned(64))) void two(long n) { SPIN(TWO_TIMES * n); }

static long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000000L;
  long long t0 = cpu_ns();
  one(n);
  long long t1 = cpu_ns();
  two(n);
  long long t2 = cpu_ns();
  __asm__ volatile("" ::: "memory");
  if (argc > 2) {
    FILE* f = fopen(argv[2], "w");
    if (!f) return 2;
    fprintf(f, "one %lld\ntwo %lld\n", t1 - t0, t2 - t1);
    fclose(f);
  }
  return 0;
}
