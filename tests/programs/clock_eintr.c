/* System calls that a signal would interrupt with EINTR even under SA_RESTART (nanosleep,
   poll, select, sigtimedwait-like waits) and read() on a pipe, run while another thread keeps
   the CPU busy; counts every EINTR (value eintr_<call>) and how many calls were made.
   argv: truth-file [iterations] */
#include "clock_truth.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/select.h>

static long g_iters = 300;
static int g_pipe[2];
static volatile int g_done;

__attribute__((noinline)) void sleeper_calls(void) {
  long nano = 0, po = 0, sel = 0;
  for (long i = 0; i < g_iters; i++) {
    struct timespec ts = {0, 200000};
    if (nanosleep(&ts, NULL) != 0 && errno == EINTR) nano++;
    if (poll(NULL, 0, 1) < 0 && errno == EINTR) po++;
    struct timeval tv = {0, 200};
    if (select(0, NULL, NULL, NULL, &tv) < 0 && errno == EINTR) sel++;
  }
  truth_value("eintr_nanosleep", nano);
  truth_value("eintr_poll", po);
  truth_value("eintr_select", sel);
}

static void* reader(void* arg) {
  long intr = 0, got = 0;
  char c;
  while (got < g_iters) {
    ssize_t n = read(g_pipe[0], &c, 1);
    if (n == 1) got++;
    else if (n < 0 && errno == EINTR) intr++;
    else break;
  }
  truth_value("eintr_read", intr);
  truth_value("reads", got);
  return arg;
}

static void* writer(void* arg) {
  for (long i = 0; i < g_iters; i++) {
    struct timespec ts = {0, 500000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    if (write(g_pipe[1], "x", 1) != 1) break;
  }
  return arg;
}

static void* hog(void* arg) {
  while (!g_done) burn_cpu_ms(20);
  return arg;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_iters = atol(argv[2]);
  if (pipe(g_pipe) != 0) return 2;
  pthread_t r, w, h;
  pthread_create(&h, NULL, hog, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&w, NULL, writer, NULL);
  sleeper_calls();
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  g_done = 1;
  pthread_join(h, NULL);
  truth_close();
  return 0;
}
