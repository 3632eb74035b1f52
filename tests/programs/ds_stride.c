/* Dataspace test (collect -p on,+): one loop over two global arrays in a known ratio of work.
 * sum_array() runs over g_a for ROUNDS rounds, then over g_b for 3 * ROUNDS rounds: the same
 * code, so the data-derived CPU time of g_b is 3x that of g_a. The body is 16 unrolled additions
 * with a memory operand each, so nearly every sampled PC is a memory instruction. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096 /* doubles: 32 KiB per array */

double g_a[N];
double g_b[N];

__attribute__((noinline)) double sum_array(const double* p, long rounds) {
  double s = 0;
  for (long r = 0; r < rounds; ++r)
    for (int i = 0; i < N; i += 16)
      s += p[i] + p[i + 1] + p[i + 2] + p[i + 3] + p[i + 4] + p[i + 5] + p[i + 6] + p[i + 7] + p[i + 8] +
           p[i + 9] + p[i + 10] + p[i + 11] + p[i + 12] + p[i + 13] + p[i + 14] + p[i + 15];
  return s;
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 20000;
  for (int i = 0; i < N; ++i) g_a[i] = g_b[i] = i * 0.5;
  double s = sum_array(g_a, rounds);
  s += sum_array(g_b, 3 * rounds);
  printf("%g\n", s);
  return 0;
}
