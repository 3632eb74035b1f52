/* Data page-fault time: touches every page of a file mapping after evicting the file from the
   page cache, with read-ahead off, so each touch sleeps in a major fault (touch_pages).
   Truth: value data_ns, the time it spent asleep (wall - CPU - run-queue delay), and
   value data_majflt, the major faults; data_delay_ns, its run-queue delay, and
   data_longest_wait_ns, the longest delay added between two notes of it (every 64 pages). argv: truth-file work-dir [MiB] */
#include "clock_truth.h"

#include <stdlib.h>
#include <sys/mman.h>

static long long delay_ns(void) {
  struct truth_record r;
  truth_thread_raw(&r, 0);
  return r.delay_ns;
}
static long majflt(void) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_majflt;
}

static int evicted_file(const char* path, size_t size) {
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  char* buf = malloc(1 << 20);
  memset(buf, 7, 1 << 20);
  for (size_t off = 0; off < size; off += 1 << 20)
    if (write(fd, buf, 1 << 20) != 1 << 20) return -1;
  free(buf);
  fsync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  return fd;
}

/* Every 64 pages it also notes the run-queue delay added since the last note: the longest is
   an upper bound of any single wait for a CPU during the loop (what a loaded machine adds). */
static long long g_longest_wait_ns;

/* 30 ms of CPU at the loop's start: the loop gets CPU samples before its faults. A fault the
   sampler sees but cannot unwind (the thread moved between its reads, common on a loaded
   machine) goes to the thread's latest CPU sample's stack, which without this would be the code
   before the loop (the file's fsync) whenever the first faults come before any CPU sample. */
__attribute__((noinline)) static void spin_cpu_ms(long ms) {
  long long end = thread_cpu_ns() + ms * 1000000LL;
  while (thread_cpu_ns() < end) {
  }
}

__attribute__((noinline)) long touch_pages(const char* m, size_t size) {
  long s = 0;
  spin_cpu_ms(30);
  long long last = delay_ns();
  for (size_t off = 0; off < size; off += 4096) {
    s += ((volatile const char*)m)[off];
    if ((off / 4096) % 64 == 63) {
      long long d = delay_ns();
      if (d - last > g_longest_wait_ns) g_longest_wait_ns = d - last;
      last = d;
    }
  }
  long long d = delay_ns();
  if (d - last > g_longest_wait_ns) g_longest_wait_ns = d - last;
  return s;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc < 3) return 2;
  size_t size = (size_t)(argc > 3 ? atol(argv[3]) : 16) << 20;
  char path[4096];

  snprintf(path, sizeof path, "%s/fault_data.bin", argv[2]);
  int fd = evicted_file(path, size);
  if (fd < 0) return 3;
  char* m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  madvise(m, size, MADV_RANDOM);
  long long w0 = now_ns(), c0 = thread_cpu_ns(), d0 = delay_ns();
  long f0 = majflt();
  g_sink = touch_pages(m, size);
  truth_value("data_ns", (double)((now_ns() - w0) - (thread_cpu_ns() - c0) - (delay_ns() - d0)));
  truth_value("data_majflt", majflt() - f0);
  truth_value("data_delay_ns", (double)(delay_ns() - d0));
  truth_value("data_longest_wait_ns", (double)g_longest_wait_ns);
  munmap(m, size);
  close(fd);
  unlink(path);

  truth_close();
  return 0;
}
