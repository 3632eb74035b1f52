/* Issue 15 item 1: a read-then-hash loop. read_chunk() reads 256 KiB of /dev/zero with read(2)
   (system time: the kernel clears the buffer), hash_chunk() hashes it in user code only. The
   kernel's own user/system split of the thread is the truth.
   argv: truth-file [cpu-ms] */
#include "clock_truth.h"

#include <stdlib.h>

static long g_ms = 800;
static unsigned char g_buf[1 << 18];
static volatile unsigned long g_hash_sink;

__attribute__((noinline)) long read_chunk(int fd) {
  long n = read(fd, g_buf, sizeof g_buf);
  NO_TAIL();
  return n;
}

/* FNV-1a over every 32nd byte of the buffer: pure user code, no calls. */
__attribute__((noinline)) unsigned long hash_chunk(long n) {
  unsigned long h = 1469598103934665603ul;
  for (long i = 0; i < n; i += 32) {
    h ^= g_buf[i];
    h *= 1099511628211ul;
  }
  return h;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_ms = atol(argv[2]);
  long long start = now_ns();
  int fd = open("/dev/zero", O_RDONLY);
  long long end = thread_cpu_ns() + g_ms * 1000000LL;
  unsigned long h = 0;
  /* The clock is read every 1024 chunks (tens of ms): a sample that lands in its system call
     (clock_gettime through syscall(2)) would be the thread's latest system-call stack and take
     the System time of the user-mode samples after it (model/mode_split.h). At every 64 chunks
     one such sample in thirty was seen in CI. */
  for (long i = 0;; i++) {
    if (i % 1024 == 0 && thread_cpu_ns() >= end) break;
    long n = read_chunk(fd);
    if (n <= 0) break;
    h += hash_chunk(n);
  }
  g_hash_sink = h;
  close(fd);
  truth_thread("main", start);
  truth_close();
  return 0;
}
