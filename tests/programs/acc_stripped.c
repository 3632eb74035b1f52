/* Issue 15 item 3: code without symbols. one(), two() and three() burn CPU in the ratio
   1:2:3; the test strips the program (strip --strip-all) and expects three functions named
   <static>@0x<start> (<acc_stripped>) with those shares, split by the .eh_frame FDEs.
   argv: [cpu-ms of one()] */
#include <stdlib.h>
#include <time.h>

static volatile double g_sink;

static long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static __attribute__((noinline)) void burn(long long ns) {
  long long end = cpu_ns() + ns;
  double x = 0;
  while (cpu_ns() < end)
    for (int i = 0; i < 20000; i++) x += (double)i * 0.5;
  g_sink = x;
}

/* Each spins in its own loop (not in burn's), so the time is exclusive to it. */
#define SPIN(name)                                                     \
  __attribute__((noinline)) void name(long long ns) {                  \
    long long end = cpu_ns() + ns;                                     \
    double x = 0;                                                      \
    while (cpu_ns() < end)                                             \
      for (int i = 0; i < 20000; i++) x += (double)i * 0.25;           \
    g_sink = x;                                                        \
  }
SPIN(one)
SPIN(two)
SPIN(three)

int main(int argc, char** argv) {
  long long unit = (argc > 1 ? atol(argv[1]) : 150) * 1000000LL;
  for (int round = 0; round < 3; round++) {
    one(unit / 3);
    two(2 * unit / 3);
    three(3 * unit / 3);
  }
  burn(0);
  return 0;
}
