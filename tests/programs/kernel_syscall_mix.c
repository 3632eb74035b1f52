/* For er_kernel: system time in the kernel's system-call paths (getpid; write(2) to /dev/null;
   pwrite(2) of 256 KiB into a memfd: the VFS write path, long enough in the kernel per call
   that the phase is almost all system time), then user time in a CPU loop. Writes as truth the CPU time of each
   phase (CLOCK_THREAD_CPUTIME_ID, exact: the first is nearly all kernel time by
   construction) and the process's own user/system split (getrusage(RUSAGE_SELF), which the
   kernel estimates from its ticks):
     value pid <pid>, value syscall_cpu_ns <ns>, value user_cpu_ns <ns>,
     value system_ns <ns>, value user_ns <ns>
   argv: truth-file [system-ms] [user-ms] */
#include "clock_truth.h"

#include <stdlib.h>

__attribute__((noinline)) void syscall_mix(long ms) {
  static char buf[1 << 18];
  int fd = open("/dev/null", O_WRONLY), mem = (int)syscall(SYS_memfd_create, "kernel_syscall_mix", 0);
  long long end = thread_cpu_ns() + ms * 1000000LL;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 8; i++) {
      syscall(SYS_getpid);
      if (write(fd, buf, 4096) < 0) break;
      if (pwrite(mem, buf, sizeof buf, 0) < 0) break;
    }
  close(fd);
  close(mem);
  NO_TAIL();
}

__attribute__((noinline)) void user_loop(long ms) {
  burn_cpu_ms(ms);
  NO_TAIL();
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  long sys_ms = argc > 2 ? atol(argv[2]) : 1000, user_ms = argc > 3 ? atol(argv[3]) : 300;
  long long t0 = thread_cpu_ns();
  syscall_mix(sys_ms);
  long long t1 = thread_cpu_ns();
  user_loop(user_ms);
  long long t2 = thread_cpu_ns();
  truth_value("syscall_cpu_ns", (double)(t1 - t0));
  truth_value("user_cpu_ns", (double)(t2 - t1));
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  truth_value("pid", getpid());
  truth_value("system_ns", ru.ru_stime.tv_sec * 1000000000LL + ru.ru_stime.tv_usec * 1000LL);
  truth_value("user_ns", ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL);
  truth_close();
  return 0;
}
