/* For er_kernel: system time in two kernel paths (getpid, and write(2) to /dev/null: the VFS
   write path) and then user time in a CPU loop. Writes the process's own accounting as truth:
     value pid <pid>, value system_ns <ns>, value user_ns <ns>   (getrusage(RUSAGE_SELF))
   argv: truth-file [system-ms] [user-ms] */
#include "clock_truth.h"

#include <stdlib.h>

__attribute__((noinline)) void syscall_mix(long ms) {
  static char buf[4096];
  int fd = open("/dev/null", O_WRONLY);
  long long end = thread_cpu_ns() + ms * 1000000LL;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 32; i++) {
      syscall(SYS_getpid);
      if (write(fd, buf, sizeof buf) < 0) break;
    }
  close(fd);
  NO_TAIL();
}

__attribute__((noinline)) void user_loop(long ms) {
  burn_cpu_ms(ms);
  NO_TAIL();
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  long sys_ms = argc > 2 ? atol(argv[2]) : 1000, user_ms = argc > 3 ? atol(argv[3]) : 300;
  syscall_mix(sys_ms);
  user_loop(user_ms);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  truth_value("pid", getpid());
  truth_value("system_ns", ru.ru_stime.tv_sec * 1000000000LL + ru.ru_stime.tv_usec * 1000LL);
  truth_value("user_ns", ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL);
  truth_close();
  return 0;
}
