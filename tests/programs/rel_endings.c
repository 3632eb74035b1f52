/* Hostile endings for the reliability tests (issue 11). Burns a known amount of its own CPU
 * time in burn(), reports it, then ends as asked:
 *   rel_endings segv  <ms>            SIGSEGV after the work
 *   rel_endings abort <ms>            abort() after the work
 *   rel_endings threads <n> <ms>      n threads each burn <ms>; exits 0
 *   rel_endings until-gone <path>     burns until <path> disappears, then starts a thread and
 *                                     burns some more (recording into a removed directory); exits 0
 *   rel_endings close-all <dir>       closes every descriptor above 2 with a raw close_range,
 *                                     opens 12 files in <dir> (reusing the numbers), burns in 4
 *                                     threads, writes "hello\n" to each file; exits 0
 * stdout carries only deterministic lines (the comparison with a run without erkit), except
 * "cpu_ns <n>", the CPU time spent in burn() as the kernel counts it (the tests' ground truth). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static long long cpu_ns(clockid_t clk) {
  struct timespec ts;
  clock_gettime(clk, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long g_burned_ns;  /* CPU time spent in burn(), all threads (atomic adds) */

/* Burns ms of this thread's CPU time. */
__attribute__((noinline)) void burn(long ms) {
  long long start = cpu_ns(CLOCK_THREAD_CPUTIME_ID), end = start + ms * 1000000LL, now;
  double x = 0;
  while ((now = cpu_ns(CLOCK_THREAD_CPUTIME_ID)) < end)
    for (int i = 0; i < 10000; i++) x += (double)i * 0.5;
  sink = x;
  __atomic_add_fetch(&g_burned_ns, now - start, __ATOMIC_RELAXED);
  __asm__ volatile("" ::: "memory");
}

static void* burn_thread(void* arg) {
  burn((long)arg);
  return NULL;
}

static void report(void) {
  printf("cpu_ns %lld\n", __atomic_load_n(&g_burned_ns, __ATOMIC_RELAXED));
  fflush(stdout);
}

static int gone(const char* path) {
  struct stat st;
  return stat(path, &st) != 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rel_endings segv|abort <ms> | threads <n> <ms> | until-gone <path>\n");
    return 2;
  }
  const char* mode = argv[1];
  if (strcmp(mode, "segv") == 0 || strcmp(mode, "abort") == 0) {
    burn(atol(argv[2]));
    report();
    if (mode[0] == 'a') abort();
    volatile int* p = NULL;
    *p = 1;
    return 0;
  }
  if (strcmp(mode, "threads") == 0 && argc > 3) {
    int n = atoi(argv[2]);
    long ms = atol(argv[3]);
    pthread_t t[64];
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) pthread_create(&t[i], NULL, burn_thread, (void*)ms);
    burn(ms);
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    printf("threads %d done\n", n);
    return 0;
  }
  if (strcmp(mode, "until-gone") == 0) {
    long long limit = cpu_ns(CLOCK_MONOTONIC) + 30000000000LL;  /* never hang a test */
    while (!gone(argv[2])) {
      if (cpu_ns(CLOCK_MONOTONIC) > limit) {
        printf("timed out: %s still exists\n", argv[2]);
        return 3;
      }
      burn(5);
    }
    pthread_t t;
    pthread_create(&t, NULL, burn_thread, (void*)100L);
    burn(100);
    pthread_join(t, NULL);
    printf("went on after %s was removed\n", argv[2]);
    return 0;
  }
  if (strcmp(mode, "close-all") == 0) {
    syscall(SYS_close_range, 3u, ~0u, 0u);  /* raw: no interposer sees it */
    int fds[12];
    char path[4096];
    for (int i = 0; i < 12; i++) {
      snprintf(path, sizeof path, "%s/out%d.txt", argv[2], i);
      fds[i] = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    }
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, burn_thread, (void*)100L);
    burn(100);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 12; i++) {
      if (write(fds[i], "hello\n", 6) != 6) return 4;
      close(fds[i]);
    }
    report();
    return 0;
  }
  fprintf(stderr, "rel_endings: unknown mode %s\n", mode);
  return 2;
}
