// A plain recursive chain built with -O2 -fomit-frame-pointer: every frame must be unwound
// through its CFI (each level pushes a callee-saved register and keeps a local on the stack).
extern "C" {

volatile int bench_sink;

__attribute__((noinline)) int bench_recurse(int depth, void (*leaf)(void*), void* arg) {
  volatile int local = depth;
  if (depth <= 0) {
    leaf(arg);
    return local;
  }
  const int r = bench_recurse(depth - 1, leaf, arg);
  bench_sink = r;  // not a tail call
  return r + local;
}

}  // extern "C"
