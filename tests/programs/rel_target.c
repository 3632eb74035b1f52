/* The target must behave exactly as without erkit (issue 14, items 6-8). Each mode prints what
   a program can observe of its own process, so that a test compares the output under collect
   with the output of the plain run, byte for byte.
     signals          dispositions and blocked state of signals 1..31 as the program sees them
     hup              SIGHUP to its whole process group (a terminal closing), then "alive"
     raise:N          dies by signal N
     daemon T N F     T threads burn CPU while the main thread, N times, closes every
                      descriptor (close 0-2, closefrom(3)) and opens /dev/null four times,
                      noting the numbers it gets; then dup2()s onto 900..915 and closes those;
                      writes the report to file F
     nofile T L       T threads start (and keep running), the limit of open descriptors is
                      lowered to L, then the program opens /dev/null until EMFILE */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile int g_stop;
static volatile int g_started;
static volatile unsigned long g_sink;

static void* burner(void* arg) {
  (void)arg;
  __atomic_add_fetch(&g_started, 1, __ATOMIC_SEQ_CST);
  unsigned long x = 1;
  while (!g_stop) {
    for (int i = 0; i < 100000; ++i) x = x * 6364136223846793005ul + 1442695040888963407ul;
    g_sink = x;
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);  /* asleep now and then: the sampler reads its syscall file */
  }
  return NULL;
}

static pthread_t* start_threads(int n) {
  pthread_t* t = calloc((size_t)n, sizeof *t);
  for (int i = 0; i < n; ++i) pthread_create(&t[i], NULL, burner, NULL);
  while (__atomic_load_n(&g_started, __ATOMIC_SEQ_CST) < n) sched_yield();
  /* Long enough for the collector's sampler to have looked at every thread. */
  struct timespec ts = {0, 100000000};
  nanosleep(&ts, NULL);
  return t;
}

static void stop_threads(pthread_t* t, int n) {
  g_stop = 1;
  for (int i = 0; i < n; ++i) pthread_join(t[i], NULL);
  free(t);
}

static int print_signals(void) {
  sigset_t mask;
  sigprocmask(SIG_BLOCK, NULL, &mask);
  for (int s = 1; s < 32; ++s) {
    struct sigaction sa;
    const char* what = "?";
    if (sigaction(s, NULL, &sa) == 0)
      what = (sa.sa_flags & SA_SIGINFO) ? "handler" : sa.sa_handler == SIG_IGN ? "ignored"
                                                     : sa.sa_handler == SIG_DFL ? "default" : "handler";
    printf("%2d %-8s %s %s\n", s, sigabbrev_np(s), what, sigismember(&mask, s) ? "blocked" : "-");
  }
  return 0;
}

static int daemon_mode(int threads, int rounds, const char* report) {
  pthread_t* t = start_threads(threads);
  int bad_round = -1, got[4] = {0, 0, 0, 0};
  for (int r = 0; r < rounds && bad_round < 0; ++r) {
    close(0);
    close(1);
    close(2);
    closefrom(3);
    for (int i = 0; i < 4; ++i) got[i] = open("/dev/null", O_RDWR);
    if (got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 3) bad_round = r;
    char c;
    if (bad_round < 0 && read(0, &c, 1) != 0) bad_round = r; /* stdin must be /dev/null */
  }
  /* dup2 onto numbers the program chooses itself (a shell's exec 900>file). */
  int dup_ok = 0, close_ok = 0;
  for (int fd = 900; fd < 916; ++fd) {
    if (dup2(3, fd) == fd && write(fd, "x", 1) == 1) ++dup_ok;
    if (close(fd) == 0) ++close_ok;
  }
  int closed_again = close(905) == -1 && errno == EBADF; /* as without erkit: not open */
  stop_threads(t, threads);
  FILE* out = fopen(report, "w");
  if (!out) return 3;
  fprintf(out, "rounds %d\nfirst bad round %d\nlast numbers %d %d %d %d\n", rounds, bad_round, got[0], got[1],
          got[2], got[3]);
  fprintf(out, "dup2 onto 900..915: %d of 16\nclosed: %d of 16\nclose of a closed number fails: %d\n", dup_ok,
          close_ok, closed_again);
  fclose(out);
  return 0;
}

static int nofile_mode(int threads, int limit) {
  pthread_t* t = start_threads(threads);
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = (rlim_t)limit;
  if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return 3;
  int opened = 0, fds[4096], err = 0;
  for (;;) {
    int fd = open("/dev/null", O_RDONLY);
    if (fd < 0) {
      err = errno;
      break;
    }
    fds[opened++] = fd;
    if (opened == 4096) break;
  }
  int highest = opened ? fds[opened - 1] : -1;
  for (int i = 0; i < opened; ++i) close(fds[i]);
  stop_threads(t, threads);
  printf("opened %d, highest %d, then %s\n", opened, highest, err == EMFILE ? "EMFILE" : strerror(err));
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* mode = argv[1];
  if (!strcmp(mode, "signals")) return print_signals();
  if (!strcmp(mode, "hup")) {
    kill(0, SIGHUP);
    struct timespec ts = {0, 100000000};
    nanosleep(&ts, NULL);
    printf("alive after SIGHUP\n");
    return 0;
  }
  if (!strncmp(mode, "raise:", 6)) {
    raise(atoi(mode + 6));
    return 0;
  }
  if (!strcmp(mode, "daemon") && argc > 4) return daemon_mode(atoi(argv[2]), atoi(argv[3]), argv[4]);
  if (!strcmp(mode, "nofile") && argc > 3) return nofile_mode(atoi(argv[2]), atoi(argv[3]));
  return 2;
}
