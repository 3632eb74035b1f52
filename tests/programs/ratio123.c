/* one(), two() and three() run the same loop n, 2n and 3n times: a 1:2:3 profile. argv:
   [n] [truth-file]. With a truth file, the thread CPU time each call really took
   (CLOCK_THREAD_CPUTIME_ID) is written to it as "one <ns>", "two <ns>", "three <ns>": under
   emulation (qemu-user) or on a loaded machine the same work can take different CPU time, so
   tests compare the profile with what the kernel measured (the aarch64 tests, docs/platforms.md). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

/* One loop body for all three, as in work_ratio.c: the same machine code, aligned alike. */
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
__attribute__((noinline, aligned(64))) void three(long n) { SPIN(3 * n); }

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
  three(n);
  long long t3 = cpu_ns();
  __asm__ volatile("" ::: "memory");
  if (argc > 2) {
    FILE* f = fopen(argv[2], "w");
    if (!f) return 2;
    fprintf(f, "one %lld\ntwo %lld\nthree %lld\n", t1 - t0, t2 - t1, t3 - t2);
    fclose(f);
  }
  return 0;
}
