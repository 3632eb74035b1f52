/* A thread that spends its time in system calls (reads of /dev/zero, which the kernel fills:
   system time), in syscall_loop; the kernel's user/system split of it is the truth.
   argv: truth-file [cpu-ms] */
#include "clock_truth.h"

#include <stdlib.h>

static long g_ms = 300;

__attribute__((noinline)) void syscall_loop(void) {
  static char buf[1 << 16];
  int fd = open("/dev/zero", O_RDONLY);
  long long end = thread_cpu_ns() + g_ms * 1000000LL;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 16; i++)
      if (read(fd, buf, sizeof buf) <= 0) break;
  close(fd);
  NO_TAIL();
}

static void* run(void* arg) {
  long long start = now_ns();
  syscall_loop();
  truth_thread("syscall_loop", start);
  return arg;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_ms = atol(argv[2]);
  pthread_t t;
  pthread_create(&t, NULL, run, NULL);
  pthread_join(t, NULL);
  truth_close();
  return 0;
}
