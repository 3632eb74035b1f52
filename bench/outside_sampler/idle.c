/* Issue 16 bench: an idle process. Sleeps argv[1] seconds (default 10), then prints its own
   process CPU time (every thread, getrusage RUSAGE_SELF) in microseconds: what being profiled
   cost it while it did nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

int main(int argc, char** argv) {
  double s = argc > 1 ? atof(argv[1]) : 10.0;
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long long us = (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec +
                 (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
  printf("process_cpu_us=%lld\n", us);
  return 0;
}
