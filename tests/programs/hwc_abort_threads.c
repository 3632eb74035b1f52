// link: -lpthread
/* collector_hwc_ABORT test (issue 19, collect -h page-faults,1): a program that runs out of
 * descriptors. Its main thread's counters open when the collector starts; then it lowers its
 * descriptor limit to its lowest free descriptor, so nothing can be opened, and starts a thread
 * (the collector cannot open that thread's counter: EMFILE), restores the limit and starts a
 * second thread, counted as usual. Each thread first-touches PAGES pages of its own array in
 * touch_pages. Prints what it did, and whether the first thread really could open nothing. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#define PAGES 32

static char g_starved[PAGES * 4096] __attribute__((aligned(4096)));
static char g_counted[PAGES * 4096] __attribute__((aligned(4096)));
static int g_open_errno;

__attribute__((noinline)) void touch_pages(volatile char* p) {
  for (int i = 0; i < PAGES; ++i) p[i * 4096] = 1;
}

static void* starved(void* arg) {
  int fd = open("/dev/null", O_RDONLY);
  g_open_errno = fd < 0 ? errno : 0;
  if (fd >= 0) close(fd);
  touch_pages(arg);
  return 0;
}

static void* counted(void* arg) {
  touch_pages(arg);
  return 0;
}

int main(void) {
  struct rlimit old, low;
  if (getrlimit(RLIMIT_NOFILE, &old) != 0) return 2;
  int probe = open("/dev/null", O_RDONLY); /* the lowest free descriptor */
  if (probe < 0) return 2;
  close(probe);
  low.rlim_cur = (rlim_t)probe;
  low.rlim_max = old.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &low) != 0) return 2;
  pthread_t t;
  if (pthread_create(&t, 0, starved, g_starved) != 0) return 3;
  pthread_join(t, 0);
  if (setrlimit(RLIMIT_NOFILE, &old) != 0) return 2;
  if (pthread_create(&t, 0, counted, g_counted) != 0) return 3;
  pthread_join(t, 0);
  printf("pages=%d starved_open_errno=%d\n", PAGES, g_open_errno);
  return 0;
}
