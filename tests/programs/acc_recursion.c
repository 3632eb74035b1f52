/* Issue 15 item 5: recursion edges. main calls fib (direct recursion, depth > 1 whenever it
   burns CPU) and ping, which calls pong, which calls ping (mutual recursion). Every edge
   (main->fib, fib->fib, main->ping, ping->pong, pong->ping) occurs in the recorded stacks.
   argv: [cpu-ms] */
#include <stdlib.h>
#include <time.h>

static volatile long g_sink;

static long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) long fib(int n) {
  if (n < 2) return n;
  long r = fib(n - 1) + fib(n - 2);
  __asm__ volatile("" ::: "memory");
  return r;
}

long pong(int n);
__attribute__((noinline)) long ping(int n) {
  long r = n;
  if (n > 0) r += pong(n - 1);
  else
    for (int i = 0; i < 200000; i++) r += i ^ (r >> 3);
  __asm__ volatile("" ::: "memory");
  return r;
}
__attribute__((noinline)) long pong(int n) {
  long r = n * 3;
  if (n > 0) r += ping(n - 1);
  else
    for (int i = 0; i < 200000; i++) r += i ^ (r >> 5);
  __asm__ volatile("" ::: "memory");
  return r;
}

int main(int argc, char** argv) {
  long ms = argc > 1 ? atol(argv[1]) : 300;
  long long end = cpu_ns() + ms * 1000000LL;
  long s = 0;
  while (cpu_ns() < end) {
    s += fib(24);
    s += ping(6);
  }
  g_sink = s;
  return 0;
}
