/* Recursion far deeper than the collector's 250-frame stack limit, with the work at the
   bottom: its stacks must end in <Truncated-stack>. argv: [depth] [cpu-ms] */
#include "clock_truth.h"

#include <stdlib.h>

static long g_ms = 300;

__attribute__((noinline)) int deep(int n) {
  if (n == 0) {
    burn_cpu_ms(g_ms);
    return 0;
  }
  int r = deep(n - 1);
  NO_TAIL();
  return r + 1;
}

int main(int argc, char** argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 400;
  if (argc > 2) g_ms = atol(argv[2]);
  return deep(depth) == depth ? 0 : 1;
}
