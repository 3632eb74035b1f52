/* one() and two() run the same loop; two() runs it exactly twice as many times. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void one(long n) {
  double x = 0;
  for (long i = 0; i < n; i++) x += (double)i * 0.5;
  sink = x;
  __asm__ volatile("" ::: "memory"); /* keep the call a real call: no tail-call merging */
}

__attribute__((noinline)) void two(long n) {
  double x = 0;
  for (long i = 0; i < 2 * n; i++) x += (double)i * 0.5;
  sink = x;
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000000L;
  one(n);
  two(n);
  __asm__ volatile("" ::: "memory");
  return 0;
}
