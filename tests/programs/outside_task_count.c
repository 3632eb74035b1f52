/* Issue 16 (outside sampler tests): prints how many threads the process has (entries of /proc/self/task), at the
   start of main and after 200 ms of sleep plus 100 ms of CPU, as `ls /proc/self/task | wc -l`
   would. Single-threaded: without a profiler it prints "tasks 1 1". argv: none. */
#include <dirent.h>
#include <stdio.h>
#include <time.h>

static int count_tasks(void) {
  DIR* d = opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  struct dirent* e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long burn(double seconds) {
  volatile unsigned long x = 0;
  double start = cpu_seconds();
  while (cpu_seconds() - start < seconds)
    for (int i = 0; i < 10000; i++) x += (unsigned long)i;
  return x;
}

int main(void) {
  int first = count_tasks();
  struct timespec ts = {0, 200 * 1000000L};
  nanosleep(&ts, NULL);
  burn(0.1);
  printf("tasks %d %d\n", first, count_tasks());
  return 0;
}
