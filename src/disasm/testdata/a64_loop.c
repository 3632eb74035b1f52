// Cross-built for aarch64 by clang + lld (freestanding: no libc, no sysroot): a loop, a
// direct call through the PLT and a conditional branch, for the aarch64 disassembly tests.
extern int ext_fn(int);
int sum_to(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i * 3;  // LINE:loop
  return s;
}
int caller(int x) {
  return ext_fn(x) + sum_to(x);  // LINE:call
}
