/* Calls clock_gettime(CLOCK_MONOTONIC) in a loop for ~300 ms of CPU: the time is spent in the
   vDSO, whose function (__vdso_clock_gettime) the profile must name from the [vdso] image.
   argv: [cpu-ms] */
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  long ms = argc > 1 ? atol(argv[1]) : 300;
  struct timespec t0, t, c;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  volatile long sink = 0;
  for (;;) {
    for (int i = 0; i < 10000; i++) {
      clock_gettime(CLOCK_MONOTONIC, &t);
      sink += t.tv_nsec;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    if ((c.tv_sec - t0.tv_sec) * 1000 + (c.tv_nsec - t0.tv_nsec) / 1000000 >= ms) break;
  }
  return (int)(sink & 0);
}
