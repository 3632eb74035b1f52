// link: -lpthread
// Issue 16, collect -P: a running program to attach to. The initial thread burns CPU in
// burn_main, a second thread in burn_worker, a third sleeps in read() on stdin; end of stdin
// stops the burners and the program prints one line and exits with status 3 (the test checks
// both are unchanged by attaching and detaching).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int g_stop;
static volatile double g_sink;

__attribute__((noinline)) static void burn_main(void) {
  double x = 1;
  while (!g_stop)
    for (int i = 0; i < 100000; ++i) x = x * 1.0000001 + 1e-9;
  g_sink = x;
}

__attribute__((noinline)) static void burn_worker(void) {
  double x = 2;
  while (!g_stop)
    for (int i = 0; i < 100000; ++i) x = x * 1.0000001 + 1e-9;
  g_sink = x;
}

static void* worker(void* arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "burn_worker");
  burn_worker();
  return 0;
}

__attribute__((noinline)) static void wait_stdin(void) {
  char buf[64];
  while (read(0, buf, sizeof buf) > 0) {
  }
  g_stop = 1;
}

static void* waiter(void* arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "wait_stdin");
  wait_stdin();
  return 0;
}

int main(void) {
  pthread_t w, s;
  pthread_create(&w, 0, worker, 0);
  pthread_create(&s, 0, waiter, 0);
  burn_main();
  pthread_join(w, 0);
  pthread_join(s, 0);
  printf("attach_target: done\n");
  return 3;
}
