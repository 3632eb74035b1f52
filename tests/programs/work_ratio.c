/* one() and two() run the same loop; two() runs it exactly twice as many times.
   With a second argument, the thread CPU time each call really took (CLOCK_THREAD_CPUTIME_ID)
   is written to that file as "one <ns>" and "two <ns>": on a shared machine the same work can
   take more CPU time when the other core is busy, so tests compare with what the kernel saw. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

/* Both calls run the very same loop, so their machine code is identical and aligned alike: with
   two hand-written loops (`i < n` and `i < 2 * n`) GCC emitted different compare/branch pairs at
   different alignments, and on some CPUs an iteration of one() cost 20 % more than one of two().
   A macro, not an inline function, so the time stays in one() and two() themselves. */
#define SPIN(m)                                                                 \
  do {                                                                          \
    long m_ = (m);                                                              \
    double x = 0;                                                               \
    for (long i = 0; i < m_; i++) x += (double)i * 0.5;                         \
    sink = x;                                                                   \
    __asm__ volatile("" ::: "memory"); /* a real call: no tail-call merging */ \
  } while (0)

__attribute__((noinline, aligned(64))) void one(long n) { SPIN(n); }

__attribute__((noinline, aligned(64))) void two(long n) { SPIN(2 * n); }

static long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000000L;
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
