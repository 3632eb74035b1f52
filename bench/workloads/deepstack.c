// Deep random call chains: every chain is ~100 frames through 32 functions picked at random, so
// almost every sample has a stack never seen before (the worst case for stack de-duplication,
// experiment size, unwinding cost and analysis). Built twice: without frame pointers (deepstack,
// like Debian's packages) and with them (deepstack_fp, so perf's default unwinder sees them too).
// Usage: deepstack [units] [depth]   (one unit is about 10 ms of CPU; depth defaults to 100)
#include "bench_common.h"

typedef unsigned (*chain_fn)(int depth, unsigned seed);
static chain_fn g_table[32];

__attribute__((noinline)) static unsigned leaf(unsigned seed) {
  unsigned long long x = seed;
  for (int i = 0; i < 20000; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL + (x >> 29);
  return (unsigned)x;
}

// The "+ k" after the call keeps each frame alive (no tail call), so the stack really is deep.
#define CHAIN_FN(k)                                                        \
  __attribute__((noinline)) static unsigned f##k(int depth, unsigned seed) { \
    if (depth <= 0) return leaf(seed);                                     \
    seed = seed * 1103515245u + 12345u;                                    \
    return g_table[(seed >> 16) & 31](depth - 1, seed) + k;                \
  }
CHAIN_FN(0) CHAIN_FN(1) CHAIN_FN(2) CHAIN_FN(3) CHAIN_FN(4) CHAIN_FN(5) CHAIN_FN(6) CHAIN_FN(7)
CHAIN_FN(8) CHAIN_FN(9) CHAIN_FN(10) CHAIN_FN(11) CHAIN_FN(12) CHAIN_FN(13) CHAIN_FN(14) CHAIN_FN(15)
CHAIN_FN(16) CHAIN_FN(17) CHAIN_FN(18) CHAIN_FN(19) CHAIN_FN(20) CHAIN_FN(21) CHAIN_FN(22) CHAIN_FN(23)
CHAIN_FN(24) CHAIN_FN(25) CHAIN_FN(26) CHAIN_FN(27) CHAIN_FN(28) CHAIN_FN(29) CHAIN_FN(30) CHAIN_FN(31)

int main(int argc, char** argv) {
  chain_fn fns[32] = {f0,  f1,  f2,  f3,  f4,  f5,  f6,  f7,  f8,  f9,  f10, f11, f12, f13, f14, f15,
                      f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31};
  memcpy(g_table, fns, sizeof fns);
  long units = bench_units(argc, argv, 150);
  int depth = argc > 2 ? atoi(argv[2]) : 100;
  unsigned seed = 12345, acc = 0;
  for (long c = 0; c < units * 360; ++c) {
    seed = seed * 1103515245u + 12345u;
    acc += g_table[(seed >> 16) & 31](depth - 1, seed);
  }
  bench_sink = acc;
  bench_report_thread("main");
  return 0;
}
