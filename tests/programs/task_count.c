/* Prints how many threads the process sees in /proc/self/task (what `ls /proc/self/task | wc -l`
   prints inside it), after a short CPU burn so the collector has started everything it starts.
   argv: output-file */
#include <dirent.h>
#include <stdio.h>
#include <time.h>

static volatile double sink;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    for (int i = 0; i < 100000; i++) sink += i * 0.5;
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 200000000L);
  int n = 0;
  DIR* d = opendir("/proc/self/task");
  if (!d) return 1;
  for (struct dirent* e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  FILE* f = fopen(argv[1], "w");
  if (!f) return 1;
  fprintf(f, "%d\n", n);
  fclose(f);
  return 0;
}
