// A tiny shared library for the dlopen test, built with -O2 -fomit-frame-pointer.
extern "C" {

volatile int testlib_sink;

__attribute__((noinline)) int testlib_recurse(int depth, void (*cb)(void*), void* arg) {
  if (depth <= 0) {
    cb(arg);
    testlib_sink = 0;
    return 0;
  }
  const int r = testlib_recurse(depth - 1, cb, arg);
  testlib_sink = r;  // not a tail call
  return r + 1;
}

}  // extern "C"
