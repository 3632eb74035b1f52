// Security tests (tests/e2e/security_test.cc): a program that gives the test time to plant
// files as another user while it runs. Writes its pid to argv[1], waits until the file argv[2]
// exists (at most 60 s), then, with "own" as argv[3], sets umask 0 and writes its own JIT map
// /tmp/perf-<pid>.map naming jit_own_fn, as a JIT would. Exits 0.
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
  FILE* f = fopen(tmp, "w");
  if (!f) return 3;
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  rename(tmp, argv[1]);
  struct timespec ts = {0, 5 * 1000 * 1000};
  for (int i = 0; i < 12000 && access(argv[2], F_OK) != 0; ++i) nanosleep(&ts, NULL);
  if (argc > 3 && argv[3][0] == 'o') {
    umask(0);
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    FILE* m = fopen(path, "w");
    if (!m) return 4;
    fprintf(m, "7f0000001000 40 jit_own_fn\n");
    fclose(m);
  }
  return 0;
}
