/* Dataspace test (collect -p on,+): one loop over two global arrays in a known ratio of work.
 * sum_array() runs over g_a for ROUNDS rounds, then over g_b for 3 * ROUNDS rounds: the same
 * code, so the data-derived CPU time of g_b is 3x that of g_a. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096 /* doubles: 32 KiB per array */

double g_a[N];
double g_b[N];

/* Not vectorized: each addition is one addsd with a memory operand, in one dependency chain
 * (no -ffast-math: the additions keep their order), so the loop's time is spent on them. */
__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-unroll-loops")))
double sum_array(const double* p, long rounds) {
  double s = 0;
  for (long r = 0; r < rounds; ++r)
    for (int i = 0; i < N; i += 8) {
      s += p[i];
      s += p[i + 1];
      s += p[i + 2];
      s += p[i + 3];
      s += p[i + 4];
      s += p[i + 5];
      s += p[i + 6];
      s += p[i + 7];
    }
  return s;
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 30000;
  for (int i = 0; i < N; ++i) g_a[i] = g_b[i] = i * 0.5;
  double s = sum_array(g_a, rounds);
  s += sum_array(g_b, 3 * rounds);
  printf("%g\n", s);
  return 0;
}
