// Shared by the benchmark workloads: a fixed amount of work per run (never "run for N seconds",
// so instrumented and plain runs do identical work), and ground truth for the fidelity figures:
// each thread appends its own CPU time, read from the kernel, to $BENCH_THREAD_REPORT (not an
// ERKIT_ name: collect clears those from the target's environment).
#pragma once
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline long long bench_thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// One line per thread: "tid=<tid> cpu_ns=<ns> label=<label>". One write() with O_APPEND, so
// lines from concurrent threads and processes never interleave.
static inline void bench_report_thread(const char* label) {
  const char* path = getenv("BENCH_THREAD_REPORT");
  if (!path || !*path) return;
  char line[160];
  int n = snprintf(line, sizeof line, "tid=%ld cpu_ns=%lld label=%s\n", (long)syscall(SYS_gettid),
                   bench_thread_cpu_ns(), label);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, line, (size_t)n) < 0) { /* the figure is then missing, the run is still valid */ }
  close(fd);
}

// argv[1] scales the work: units of roughly 10 ms of CPU on a 2.6 GHz Xeon.
static inline long bench_units(int argc, char** argv, long dflt) {
  if (argc < 2) return dflt;
  char* end;
  long v = strtol(argv[1], &end, 10);
  if (*end || v <= 0) {
    fprintf(stderr, "%s: work units must be a positive integer, not '%s'\n", argv[0], argv[1]);
    exit(2);
  }
  return v;
}

// Results go to a volatile sink so the compiler cannot drop the work.
static volatile unsigned long long bench_sink;

// "count=<n> label=<label>": how many operations the run did (per-operation costs).
static inline void bench_report_count(const char* label, long long n) {
  const char* path = getenv("BENCH_THREAD_REPORT");
  if (!path || !*path) return;
  char line[160];
  int len = snprintf(line, sizeof line, "count=%lld label=%s\n", n, label);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (write(fd, line, (size_t)len) < 0) { /* see bench_report_thread */ }
  close(fd);
}
